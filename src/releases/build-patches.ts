import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileSha256, type BuildProfile } from '../compile/index.js';
import { InputError } from '../errors.js';
import type { Logger } from '../log/index.js';
import { printable } from '../report/index.js';
import { checkTrustedFile, UntrustedPathError } from '../trust/index.js';
import { applyPatch, PatchApplyError, type Upstream } from '../upstream/index.js';

/** A patch a build applies, with where it was listed (for messages) and its contents' sha256 (for the key). */
export interface BuildPatch {
  path: string;
  sha256: string;
  listedBy: string;
}

/**
 * A listed patch file that cannot be read: nothing is built, and the message names the file, who lists it and the fix.
 */
export class PatchFileError extends InputError {
  constructor(
    readonly patch: string,
    readonly listedBy: string,
    readonly code: string,
  ) {
    super(`patch ${patch} (listed by ${listedBy}) cannot be read (${code}): fix the path or the file's permissions`);
  }
}

/**
 * A patch another local user could change: qpswatch builds as root, so its contents would become code that root
 * compiles and installs. The file must be owned by root or qpswatch's own user and writable by its owner only.
 */
export class PatchFileModeError extends InputError {
  constructor(
    readonly patch: string,
    readonly listedBy: string,
    what: string,
  ) {
    super(`patch ${patch} (listed by ${listedBy}) ${what}`);
  }
}

/** The one trust check (its folders too); what it refuses is said as this patch's error. */
function checkPatchFile(path: string, listedBy: string): void {
  try {
    checkTrustedFile(path, { what: 'patch', elsewhere: "use a patch of root's" });
  } catch (err) {
    if (err instanceof UntrustedPathError)
      throw new PatchFileModeError(
        path,
        listedBy,
        err.part === path ? err.problem : `is below ${err.part}, which ${err.problem}`,
      );
    throw err;
  }
}

/** The upstream's patches, then the build profile's, in the order they are applied, each with its sha256. */
export async function buildPatches(upstream: Upstream, profile: BuildProfile): Promise<BuildPatch[]> {
  const listed = [
    ...upstream.patches.map((path) => ({ path, listedBy: `upstream ${JSON.stringify(upstream.name)}` })),
    ...profile.patches.map((path) => ({ path, listedBy: `build profile ${profile.source}` })),
  ];
  const patches: BuildPatch[] = [];
  for (const { path, listedBy } of listed) {
    try {
      checkPatchFile(path, listedBy);
      patches.push({ path, listedBy, sha256: await fileSha256(path) });
    } catch (err) {
      if (err instanceof PatchFileModeError) throw err;
      throw new PatchFileError(path, listedBy, (err as NodeJS.ErrnoException).code ?? String(err));
    }
  }
  return patches;
}

export interface ApplyPatchesInput {
  worktree: string;
  tag: string;
  patches: readonly BuildPatch[];
  /** The build's log: a refusal is written there too, so the log a person is pointed at says why. */
  logFile: string;
  signal: AbortSignal;
  log: Logger;
}

/**
 * Applies the patches in order. A patch git refuses stops there and comes back as one line (the patch, the tag and
 * git's reason) for the build to be recorded as failed with; anything else (git missing, a timeout) throws.
 */
export async function applyBuildPatches(input: ApplyPatchesInput): Promise<string | undefined> {
  const { worktree, tag, patches, signal, log } = input;
  for (const patch of patches) {
    try {
      await applyPatch(worktree, patch.path, { signal, log });
      log.info({ tag, patch: patch.path, sha256: patch.sha256 }, 'patch applied');
    } catch (err) {
      if (!(err instanceof PatchApplyError)) throw err;
      const line = `patch ${patch.path} does not apply to ${JSON.stringify(tag)}: ${printable(err.reason)}`;
      await mkdir(dirname(input.logFile), { recursive: true });
      await appendFile(input.logFile, `\n=== qpswatch patch: ${line}\n`);
      return line;
    }
  }
  return undefined;
}
