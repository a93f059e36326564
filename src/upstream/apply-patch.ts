import { resolve } from 'node:path';
import { GitCommandError } from './errors.js';
import { runGit, type GitOptions } from './git.js';

const APPLY_TIMEOUT_MS = 60_000;
const REASON_MAX = 300;

/** A patch git would not apply to a worktree; `reason` is git's own, on one line. */
export class PatchApplyError extends Error {
  constructor(
    readonly patch: string,
    readonly reason: string,
  ) {
    super(`patch ${patch} does not apply: ${reason}`);
    this.name = new.target.name;
  }
}

/**
 * Applies one patch file to the files of a worktree with `git apply` (argv only; the path is data and always absolute,
 * so it can never read as an option). git applies all of a patch or none of it, so a patch that does not apply
 * leaves the worktree as it was.
 */
export async function applyPatch(worktreeDir: string, patchFile: string, opts: GitOptions = {}): Promise<void> {
  const patch = resolve(patchFile);
  try {
    await runGit({
      ...opts,
      args: ['-C', resolve(worktreeDir), 'apply', '--', patch],
      defaultTimeoutMs: APPLY_TIMEOUT_MS,
    });
  } catch (err) {
    if (err instanceof GitCommandError) throw new PatchApplyError(patch, applyReason(err.tail));
    throw err;
  }
}

/** git apply's "error:" lines ("patch failed: release.cmake:4", "release.cmake: patch does not apply") joined. */
export function applyReason(lines: readonly string[]): string {
  const errors = lines.map((l) => l.trim()).filter((l) => l.startsWith('error:') || l.startsWith('fatal:'));
  const text = (errors.length > 0 ? errors : lines.filter((l) => l.trim() !== '').slice(-1))
    .map((l) => l.replace(/^(?:error|fatal):\s*/, ''))
    .join('; ');
  const reason = text === '' ? 'git apply failed without saying why' : text;
  return reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 3)}...` : reason;
}
