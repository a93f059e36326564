import { assertRemote } from './remote.js';
import { LsRemoteOutputError } from './errors.js';
import { runGit, type GitOptions } from './git.js';
import { gitRemote } from './git-credentials.js';

/** A tag as the remote has it: its name and the commit it points to (annotated tags already peeled). */
export interface RemoteTag {
  readonly tag: string;
  readonly commit: string;
}

const LINE_RE = /^([0-9a-f]{40})\trefs\/tags\/(.+?)(\^\{\})?$/;
const LS_REMOTE_TIMEOUT_MS = 60_000;

/** Every tag of the remote with its commit, in git's order (by ref name). */
export async function listRemoteTags(remote: string, opts: GitOptions = {}): Promise<RemoteTag[]> {
  assertRemote(remote);
  // "--" ends the options: whatever the remote text is, git reads it as the repository. Credentials go by the
  // environment.
  const login = gitRemote(remote);
  const result = await runGit({
    ...opts,
    args: ['ls-remote', '--tags', '--', login.url],
    remote,
    login,
    defaultTimeoutMs: LS_REMOTE_TIMEOUT_MS,
  });
  return parseLsRemote(remote, result.stdout);
}

/**
 * Parses `git ls-remote --tags` output. An annotated tag appears twice: "refs/tags/x" names the tag object and
 * "refs/tags/x^{}" the commit it peels to; the commit is what gets built, so the peeled line wins.
 */
export function parseLsRemote(remote: string, output: string): RemoteTag[] {
  const direct = new Map<string, string>();
  const peeled = new Map<string, string>();
  for (const line of output.split('\n')) {
    if (line === '') continue;
    const m = LINE_RE.exec(line);
    if (m === null) throw new LsRemoteOutputError(remote, line);
    (m[3] === undefined ? direct : peeled).set(m[2]!, m[1]!);
  }
  return [...direct.keys()].map((tag) => ({ tag, commit: peeled.get(tag) ?? direct.get(tag)! }));
}
