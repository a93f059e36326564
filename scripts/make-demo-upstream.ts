// node dist/scripts/make-demo-upstream.js DIR [--json]: creates the demo upstream, a git repository whose
// mariadb-10.11.x tags build in seconds and install a working server (see scripts/demo-upstream/template/README.md).
import { parseArgs } from 'node:util';
import { InputError } from '../src/errors.js';
import { describeDemoUpstream, makeDemoUpstream } from './demo-upstream/make.js';

const HELP = `Usage: node dist/scripts/make-demo-upstream.js DIR [--json]

Creates DIR as a git repository standing in for a MariaDB upstream: release tags mariadb-10.11.1 ... 11.4.1 and
mariadb-10.6.1 ... 10.6.5 that build with cmake in seconds (build profile "demo") and install bin/mariadbd, a
launcher that reports the tag's version and runs this host's /usr/sbin/mariadbd with settings fixed per release.
One release is slower on writes (fsync at every commit), one fails to compile, each 10.6 release after the first
makes the server spend more CPU per query (about 3% slower each, a drift; it preloads a small library), and some
tag names are hostile (shell metacharacters, a leading --) to prove that tags never reach a shell. A bisection
series follows: mariadb-10.5.1, sixteen untagged commits (the fifth makes every commit durable and slow, the
eighth does not compile; subjects and one author hold quotes, & and <>), then the slow mariadb-10.5.2, for
qpswatch bisect. DIR must not exist or be empty.

Options:
  --json   print what was made as JSON instead of text
  --help

Exit codes: 0 made; 1 failed (git missing, ...); 2 bad usage or DIR not empty.
`;

class UsageError extends InputError {}

async function main(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { json: { type: 'boolean' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}; see --help`);
  }
  if (parsed.values.help === true) {
    process.stdout.write(HELP);
    return 0;
  }
  const [dir, ...rest] = parsed.positionals;
  if (dir === undefined || rest.length > 0)
    throw new UsageError(
      'name exactly one folder to create, e.g. make-demo-upstream.js /tmp/demo-upstream; see --help',
    );
  const demo = await makeDemoUpstream(dir);
  process.stdout.write(parsed.values.json === true ? JSON.stringify(demo, null, 2) + '\n' : describeDemoUpstream(demo));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`make-demo-upstream: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = err instanceof InputError ? 2 : 1;
  },
);
