import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { run } from '../../src/exec/index.js';
import type { Logger } from '../../src/log/index.js';
import { connection } from '../../src/session/round.js';
import { prepareTarget } from '../../src/session/target.js';
import { prepareStateFolders, TargetInstance } from '../../src/session/target-instance.js';
import { findAccount, type RunningServer } from '../../src/server/index.js';
import { prepareArgv, prepareSysbench, type Suite } from '../../src/suite/index.js';
import { letServerPass } from '../helpers/server-user.js';

/**
 * The benchmarked server as a session starts it (state folders, TargetInstance: init, the first start that locks the
 * accounts, a load through sysbench, the snapshot, a round's start on its copy, with a TCP port), then probed as an
 * unfriendly local user: nobody (uid 65534), through runuser. Needs root, like every server test on this host.
 */
const NOBODY = 'nobody';
const SMALL = `
description: small and quick, for tests
settings:
  innodb_buffer_pool_size: 64M
  innodb_log_file_size: 48M
  performance_schema: 0
`;

let dir = '';
let stateDir = '';
let instance: TargetInstance;
let server: RunningServer | undefined;
let port = 0;
let password = '';
const logLines: string[] = [];
const log: Logger = pino(
  { level: 'debug' },
  new Writable({ write: (chunk: Buffer, _enc, done) => (logLines.push(chunk.toString()), done()) }),
);

/** A command as nobody: its exit code and output (never throws on a non-zero exit). */
async function asNobody(argv: string[]): Promise<{ code: number | null; output: string }> {
  const result = await run({ argv: ['runuser', '-u', NOBODY, '--', ...argv], allowFailure: true, timeoutMs: 30_000 });
  return { code: result.exitCode, output: `${result.stdout}${result.stderr}` };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const found = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return found;
}

before(async () => {
  // Short: the socket path must stay under 107 bytes.
  dir = letServerPass(await mkdtemp('/tmp/qpsw-acc-'));
  stateDir = join(dir, 'state');
  await mkdir(join(dir, 'profiles'));
  await writeFile(join(dir, 'profiles', 'small.yaml'), SMALL);
  const target = await prepareTarget(
    'small',
    { kind: 'installed', flavor: 'mariadb', basedir: '/usr', server_profile: 'small' },
    join(dir, 'profiles'),
    { log },
  );
  await prepareStateFolders(stateDir, undefined);
  port = await freePort();
  instance = new TargetInstance(
    target,
    join(stateDir, 'work', 'session-1', 'baseline'),
    join(stateDir, 'run', '1-b.sock'),
    { port, bindAddress: '127.0.0.1' },
    undefined,
    { readyMs: 60_000, stopMs: 60_000 },
  );
  await instance.initialise(log);
  // The load start: the one that gives root its password; sysbench logs in with it from its option file.
  const loading = await instance.start(log);
  try {
    await loading.query('CREATE DATABASE sbtest');
    const suite = {
      load: { database: 'sbtest', tables: 1, tableSize: 100, scriptPath: 'oltp_read_only', args: {} },
    } as unknown as Suite;
    await prepareSysbench(prepareArgv(suite, connection(instance)), {
      logFile: instance.sysbenchLog,
      timeoutMs: 120_000,
      log,
    });
  } finally {
    await loading.stop();
  }
  await instance.keepAsSnapshot();
  // A round: a copy of the snapshot made by root, started with its TCP port.
  await instance.restoreSnapshot();
  server = await instance.start(log);
  password = (await readFile(instance.sysbenchPasswordFile, 'utf8')).replace(/^mysql-password=/, '').trim();
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the benchmarked server, seen by another local user', () => {
  test('connecting over its socket fails: nobody cannot even reach the socket folder', async () => {
    assert.ok((await stat(instance.paths.socket)).isSocket());
    const result = await asNobody([
      'mariadb',
      `--socket=${instance.paths.socket}`,
      '--user=root',
      '--skip-password',
      '--connect-timeout=5',
      '-e',
      'SELECT 1',
    ]);
    assert.notEqual(result.code, 0);
    assert.match(result.output, /Can't connect to local server through socket .* \(13\)/, result.output);
  });

  test(
    "connecting over its TCP port fails: the install's root@127.0.0.1 and " +
      'anonymous accounts are gone, root has a password',
    async () => {
      const rows = await server!.query('SELECT User AS user, Host AS host FROM mysql.user ORDER BY User, Host');
      assert.deepEqual(
        rows.map((r) => `${r['user']}@${r['host']}`).filter((a) => !a.startsWith('mariadb.sys@')),
        ['root@localhost'],
      );
      for (const user of ['root', '']) {
        const result = await asNobody([
          'mariadb',
          '--protocol=TCP',
          '--host=127.0.0.1',
          `--port=${port}`,
          `--user=${user}`,
          '--skip-password',
          '--connect-timeout=5',
          '-e',
          'SELECT 1',
        ]);
        assert.notEqual(result.code, 0);
        assert.match(result.output, /Access denied/, result.output);
      }
    },
  );

  test('root without the session password is refused even for the OS root user', async () => {
    const result = await run({
      argv: ['mariadb', `--socket=${instance.paths.socket}`, '--user=root', '--skip-password', '-e', 'SELECT 1'],
      allowFailure: true,
    });
    assert.notEqual(result.exitCode, 0);
    assert.match(result.stderr, /Access denied for user 'root'@'localhost' \(using password: NO\)/);
  });

  test("the state folder, the session's work folder and the password file are unreadable to nobody", async () => {
    for (const folder of [stateDir, join(stateDir, 'work'), join(stateDir, 'run'), instance.dir]) {
      const listing = await asNobody(['ls', folder]);
      assert.notEqual(listing.code, 0, `${folder} listed by nobody`);
      assert.match(listing.output, /Permission denied/);
    }
    const cat = await asNobody(['cat', instance.sysbenchPasswordFile]);
    assert.notEqual(cat.code, 0);
    assert.doesNotMatch(cat.output, /mysql-password/);
    for (const [path, mode] of [
      [stateDir, 0o750],
      [join(stateDir, 'work'), 0o750],
      [join(stateDir, 'run'), 0o770],
      [instance.sysbenchPasswordFile, 0o600],
    ] as const) {
      assert.equal((await stat(path)).mode & 0o777, mode, path);
    }
  });

  test('the server process does not run as root: it runs as the mysql system user', async () => {
    const status = await readFile(`/proc/${server!.pid}/status`, 'utf8');
    const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(status)!.slice(1).map(Number);
    const mysql = findAccount('mysql');
    assert.ok(mysql !== undefined, "Debian's mariadb-server creates the mysql user");
    assert.deepEqual(uids, [mysql.uid, mysql.uid, mysql.uid, mysql.uid]);
    assert.ok(!uids.includes(0));
    const rows = await server!.query('SELECT @@secure_file_priv AS priv');
    assert.equal(rows[0]!['priv'], `${instance.paths.secureFileDir}/`);
  });

  test(
    "as qpswatch's own SQL user, LOAD_FILE of a host file is NULL and INTO " + 'OUTFILE outside secure_file_priv fails',
    async () => {
      const rows = await server!.query("SELECT LOAD_FILE('/etc/shadow') AS shadow, LOAD_FILE('/etc/passwd') AS passwd");
      assert.equal(rows[0]!['shadow'], null);
      assert.equal(rows[0]!['passwd'], null);
      const outside = join(dir, 'outfile.txt');
      await assert.rejects(
        server!.query(`SELECT 1 INTO OUTFILE '${outside}'`),
        (err: unknown) => (err as { errno?: number }).errno === 1290,
      );
      await assert.rejects(stat(outside), 'nothing was written outside');
      // The one folder it may write in: that works, so the refusals above are secure_file_priv's.
      await server!.query(`SELECT 1 INTO OUTFILE '${join(instance.paths.secureFileDir, 'ok.txt')}'`);
      assert.equal((await stat(join(instance.paths.secureFileDir, 'ok.txt'))).uid, findAccount('mysql')!.uid);
    },
  );

  test('the password is on no command line, in no log line and in no file but the 0600 option file', async () => {
    assert.match(password, /^[0-9a-f]{48}$/);
    const argv = prepareArgv(
      {
        load: { database: 'sbtest', tables: 1, tableSize: 100, scriptPath: 'oltp_read_only', args: {} },
      } as unknown as Suite,
      connection(instance),
    );
    assert.ok(argv.includes(`--config-file=${instance.sysbenchPasswordFile}`));
    assert.ok(!argv.join(' ').includes(password));
    assert.ok(logLines.length > 10);
    assert.ok(!logLines.join('').includes(password), 'a log line carries the password');
    for (const name of await readdir(instance.dir)) {
      const path = join(instance.dir, name);
      if (path === instance.sysbenchPasswordFile || !(await stat(path)).isFile()) continue;
      assert.ok(!(await readFile(path, 'utf8')).includes(password), `${name} carries the password`);
    }
  });
});
