import { InvalidCommitError } from './errors.js';
import { runGit, type GitOptions } from './git.js';
import { isCommitId } from './worktree.js';

/** One commit of a range, as git log tells it. Subject and author are data: never a shell's, escaped where shown. */
export interface CommitEntry {
  readonly commit: string;
  /** Its parents' commit ids, the first parent first (none for a root commit). */
  readonly parents: readonly string[];
  readonly author: string;
  readonly subject: string;
}

/**
 * The commits after `from` up to and including `to`, oldest first, following first parents only by default (the
 * merges of a release branch, not every commit of each merged branch). Both ends are commit ids, never tag names.
 * Fields and records are NUL-separated, so no subject can be read as another field.
 */
export async function listCommits(
  mirrorDir: string,
  from: string,
  to: string,
  opts: GitOptions & { firstParent?: boolean } = {},
): Promise<CommitEntry[]> {
  for (const end of [from, to]) if (!isCommitId(end)) throw new InvalidCommitError(end);
  const { firstParent = true, ...git } = opts;
  const result = await runGit({
    ...git,
    args: [
      '--git-dir',
      mirrorDir,
      'log',
      '-z',
      '--reverse',
      ...(firstParent ? ['--first-parent'] : []),
      '--format=%H%x00%P%x00%an%x00%s',
      `${from}..${to}`,
      '--',
    ],
    defaultTimeoutMs: 60_000,
  });
  return parseCommitLog(result.stdout);
}

/** `git log -z --format=%H%x00%P%x00%an%x00%s`: four NUL-separated fields per record, records NUL-terminated. */
export function parseCommitLog(stdout: string): CommitEntry[] {
  const fields = stdout.split('\0');
  if (fields.at(-1) === '') fields.pop();
  const entries: CommitEntry[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4)
    entries.push({
      commit: fields[i]!.replace(/^\n/, ''),
      parents: fields[i + 1]!.split(' ').filter((p) => p !== ''),
      author: fields[i + 2]!,
      subject: fields[i + 3]!,
    });
  return entries;
}
