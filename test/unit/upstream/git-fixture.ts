import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../src/exec/index.js';
import { fixturePath } from '../../helpers/paths.js';

/**
 * Helpers for the upstream tests: tag lists from test/fixtures/upstream and real git repositories in a temp folder.
 * Git runs with no global or system config, so the tests do not depend on (or touch) the host's git settings.
 */
const GIT_ENV = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/nonexistent',
  LANG: 'C.UTF-8',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'qpswatch test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'qpswatch test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

/** The tag names of a fixture list, comments and blank lines left out. */
export function readTagList(name: string): string[] {
  return readFileSync(fixturePath('upstream', name), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export async function tempRoot(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Runs git in `cwd` and returns its stdout without the trailing newline. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const result = await run({ argv: ['git', ...args], cwd, env: GIT_ENV, timeoutMs: 30_000 });
  return result.stdout.replace(/\n$/, '');
}

/** A repository with one commit per entry of `files` (path -> content); returns the commit ids in order. */
export async function makeRepo(dir: string, commits: Array<Record<string, string>>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  await git(dir, 'init', '--quiet', '--initial-branch=main');
  const ids: string[] = [];
  for (const [i, files] of commits.entries()) {
    for (const [path, content] of Object.entries(files)) await writeFile(join(dir, path), content);
    await git(dir, 'add', '--all');
    await git(dir, 'commit', '--quiet', '--allow-empty', '-m', `commit ${i + 1}`);
    ids.push(await git(dir, 'rev-parse', 'HEAD'));
  }
  return ids;
}

/** The commit a tag peels to, asked of git itself. */
export async function commitOf(repo: string, tag: string): Promise<string> {
  return git(repo, 'rev-parse', '--verify', '--end-of-options', `refs/tags/${tag}^{commit}`);
}
