import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { pino } from 'pino';
import {
  assertReachable,
  checkCacheDir,
  findAccount,
  initDatadir,
  lockDownStatements,
  prepareServerDirs,
  privateDir,
  serverAccount,
  serverArgv,
  serverPaths,
  ServerCredential,
  ServerUserError,
  UnsafeFolderError,
  type ServerAccount,
  type ServerBinaries,
} from '../../../src/server/index.js';
import { prepareArgv, writeSysbenchPassword, type Suite } from '../../../src/suite/index.js';
import { parseVersion, type Flavor } from '../../../src/version/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { letServerPass } from '../../helpers/server-user.js';
import { joined } from '../../helpers/pattern.js';

const PASSWD =
  'root:x:0:0:root:/root:/bin/bash\nmysql:x:102:105:MySQL ' +
  'Server,,,:/nonexistent:/bin/false\ntoor:x:0:0::/root:/bin/sh\nbench:x:1001:1001::/home/bench:/bin/sh\n';
const asRoot = process.getuid?.() === 0;

async function scratch(): Promise<string> {
  return letServerPass(await mkdtemp(join(tmpdir(), 'qpswatch-access-')));
}

describe('serverAccount', () => {
  test('as root, an empty server_user means the mysql system user', async (t) => {
    const dir = await scratch();
    t.after(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'passwd'), PASSWD);
    assert.deepEqual(serverAccount('', { uid: 0, passwdFile: join(dir, 'passwd') }), {
      name: 'mysql',
      uid: 102,
      gid: 105,
    });
    assert.deepEqual(serverAccount('bench', { uid: 0, passwdFile: join(dir, 'passwd') }), {
      name: 'bench',
      uid: 1001,
      gid: 1001,
    });
  });

  const refused: Array<[string, string, number, RegExp]> = [
    [
      'no mysql user on the host',
      '',
      0,
      joined(
        /^server_user mysql is not a user on this host; .*never runs /,
        /the benchmarked server as root: create it \(useradd .*\) or /,
        /set server_user \(QPSWATCH_SERVER_USER\)/,
      ),
    ],
    [
      'a named user that does not exist',
      'ghost',
      0,
      /^server_user ghost is not a user on this host; .*set server_user to an existing unprivileged user$/,
    ],
    [
      'a user with uid 0 under another name',
      'toor',
      0,
      /^server_user toor has uid 0: the benchmarked server never runs as root/,
    ],
    [
      'server_user set when qpswatch is not root',
      'mysql',
      1001,
      joined(
        /^server_user mysql takes effect only when qpswatch runs as /,
        /root \(it runs as uid 1001\): leave server_user empty/,
      ),
    ],
  ];
  for (const [name, configured, uid, message] of refused) {
    test(`refuses ${name}, in one line naming server_user and the fix`, async (t) => {
      const dir = await scratch();
      t.after(() => rm(dir, { recursive: true, force: true }));
      await writeFile(join(dir, 'passwd'), name.startsWith('no mysql') ? 'root:x:0:0::/root:/bin/sh\n' : PASSWD);
      assert.throws(
        () => serverAccount(configured, { uid, passwdFile: join(dir, 'passwd') }),
        (err: unknown) => {
          assert.ok(err instanceof ServerUserError);
          assert.ok(!err.message.includes('\n'));
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }

  test("not root and no server_user: no --user, mysqld runs as qpswatch's own user", () => {
    assert.equal(serverAccount('', { uid: 1001 }), undefined);
    assert.equal(serverAccount(undefined, { uid: 1001 }), undefined);
  });
});

describe('serverArgv', () => {
  const mysql: ServerAccount = { name: 'mysql', uid: 102, gid: 105 };
  const cases: Array<[string, { mysqld: string; basedir: string }, boolean, string[]]> = [
    [
      'MariaDB 10.11, first start',
      { mysqld: '/usr/sbin/mariadbd', basedir: '/usr' },
      true,
      ['/usr/sbin/mariadbd', '--defaults-file=/s/my.cnf', '--basedir=/usr', '--user=mysql', '--skip-networking'],
    ],
    [
      'MySQL 8.0, a round',
      { mysqld: '/b/my8036/bin/mysqld', basedir: '/b/my8036' },
      false,
      ['/b/my8036/bin/mysqld', '--defaults-file=/s/my.cnf', '--basedir=/b/my8036', '--user=mysql'],
    ],
    [
      'MySQL 5.7, first start',
      { mysqld: '/b/my5744/bin/mysqld', basedir: '/b/my5744' },
      true,
      ['/b/my5744/bin/mysqld', '--defaults-file=/s/my.cnf', '--basedir=/b/my5744', '--user=mysql', '--skip-networking'],
    ],
    [
      'MySQL 5.6, first start',
      { mysqld: '/b/my5651/bin/mysqld', basedir: '/b/my5651' },
      true,
      ['/b/my5651/bin/mysqld', '--defaults-file=/s/my.cnf', '--basedir=/b/my5651', '--user=mysql', '--skip-networking'],
    ],
    [
      'Percona 8.0, a round',
      { mysqld: '/b/ps8036/bin/mysqld', basedir: '/b/ps8036' },
      false,
      ['/b/ps8036/bin/mysqld', '--defaults-file=/s/my.cnf', '--basedir=/b/ps8036', '--user=mysql'],
    ],
  ];
  for (const [name, binaries, lockDown, expected] of cases) {
    test(name, () => assert.deepEqual(serverArgv(binaries, '/s/my.cnf', mysql, lockDown), expected));
  }
  test('not root: no --user', () => {
    assert.deepEqual(serverArgv({ mysqld: '/usr/sbin/mariadbd', basedir: '/usr' }, '/s/my.cnf', undefined, false), [
      '/usr/sbin/mariadbd',
      '--defaults-file=/s/my.cnf',
      '--basedir=/usr',
    ]);
  });
});

describe('lockDownStatements', () => {
  const accounts = [
    { user: 'root', host: 'localhost' },
    { user: 'root', host: '127.0.0.1' },
    { user: 'root', host: '::1' },
    { user: 'root', host: 'build-host' },
    { user: '', host: 'localhost' },
    { user: '', host: 'build-host' },
    { user: 'mysql.sys', host: 'localhost' },
    { user: 'mariadb.sys', host: 'localhost' },
  ];
  const cases: Array<[Flavor, string, string]> = [
    ['mariadb', '10.11.9', "ALTER USER 'root'@'localhost' IDENTIFIED BY ?"],
    ['mariadb', '10.2.44', "ALTER USER 'root'@'localhost' IDENTIFIED BY ?"],
    ['mariadb', '10.1.48', "SET PASSWORD FOR 'root'@'localhost' = PASSWORD(?)"],
    ['mysql', '8.0.36', "ALTER USER 'root'@'localhost' IDENTIFIED BY ?"],
    ['mysql', '5.7.6', "ALTER USER 'root'@'localhost' IDENTIFIED BY ?"],
    ['mysql', '5.7.5', "SET PASSWORD FOR 'root'@'localhost' = PASSWORD(?)"],
    ['mysql', '5.6.51', "SET PASSWORD FOR 'root'@'localhost' = PASSWORD(?)"],
    ['percona', '8.0.36-28', "ALTER USER 'root'@'localhost' IDENTIFIED BY ?"],
    ['percona', '5.6.51-91.0', "SET PASSWORD FOR 'root'@'localhost' = PASSWORD(?)"],
  ];
  for (const [flavor, version, setPassword] of cases) {
    test(
      `${flavor} ${version}: other root and anonymous accounts dropped, ` +
        `root@localhost given the password, as values`,
      () => {
        const statements = lockDownStatements({ flavor, version: parseVersion(version) }, accounts, 'p4ss');
        assert.deepEqual(statements, [
          { sql: 'SET SESSION sql_log_bin = 0', values: [] },
          { sql: 'DROP USER ?@?', values: ['root', '127.0.0.1'] },
          { sql: 'DROP USER ?@?', values: ['root', '::1'] },
          { sql: 'DROP USER ?@?', values: ['root', 'build-host'] },
          { sql: 'DROP USER ?@?', values: ['', 'localhost'] },
          { sql: 'DROP USER ?@?', values: ['', 'build-host'] },
          { sql: setPassword, values: ['p4ss'] },
        ]);
        assert.ok(
          statements.every((s) => !s.sql.includes('p4ss')),
          'the password is a value, never in the statement text',
        );
      },
    );
  }
});

describe('ServerCredential', () => {
  test('a fresh random password per instance, shown by reveal() alone', () => {
    const a = ServerCredential.random();
    const b = ServerCredential.random();
    assert.match(a.reveal(), /^[0-9a-f]{48}$/);
    assert.notEqual(a.reveal(), b.reveal());
    const secret = a.reveal();
    const lines: string[] = [];
    const log = pino(
      { level: 'debug' },
      new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) }),
    );
    log.info({ credential: a, nested: { a } }, `credential ${String(a)}`);
    for (const shown of [
      String(a),
      `${a}`,
      JSON.stringify({ a }),
      inspect(a),
      inspect({ deep: { a } }),
      lines.join(''),
    ]) {
      assert.ok(!shown.includes(secret), shown);
    }
    assert.equal(a.scrub(`denied ${secret} here`), 'denied *** here');
  });
});

describe('sysbench and the password', () => {
  test('the password goes in a 0600 --config-file, never on the command line', async (t) => {
    const dir = await scratch();
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'sysbench.cnf');
    await writeFile(file, 'old and world-readable');
    await chmod(file, 0o644);
    await writeSysbenchPassword(file, 'abc123');
    assert.equal(await readFile(file, 'utf8'), 'mysql-password=abc123\n');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const suite = {
      load: {
        tables: 1,
        tableSize: 10,
        script: 'oltp_read_only',
        scriptPath: '/s/oltp_read_only.lua',
        args: {},
        database: 'sbtest',
      },
    } as unknown as Suite;
    const argv = prepareArgv(suite, { socket: '/s/x.sock', user: 'root', optionsFile: file });
    assert.equal(argv[0], `--config-file=${file}`);
    assert.ok(!argv.some((a) => a.includes('abc123') || a.startsWith('--mysql-password')));
  });
});

describe('private folders and the server account', { skip: asRoot ? false : 'chown needs root' }, () => {
  const mysql = findAccount('mysql') ?? findAccount('nobody')!;

  test(
    "the state folders are 0750 with the server's group; the socket folder " + "0770; the server's own folders are its",
    async (t) => {
      const dir = await scratch();
      t.after(() => rm(dir, { recursive: true, force: true }));
      await privateDir(join(dir, 'state', 'work', 'session-1', 'baseline'), mysql);
      for (const d of ['state', 'state/work', 'state/work/session-1', 'state/work/session-1/baseline']) {
        const s = await stat(join(dir, d));
        assert.equal(s.mode & 0o7777, 0o750, d);
        assert.deepEqual([s.uid, s.gid], [0, mysql.gid], d);
      }
      const paths = {
        ...serverPaths(join(dir, 'state', 'work', 'session-1', 'baseline')),
        socket: join(dir, 'state', 'run', '1-b.sock'),
      };
      await mkdir(paths.datadir);
      await writeFile(join(paths.datadir, 'ibdata1'), 'copied by root');
      await prepareServerDirs(paths, mysql);
      assert.equal((await stat(join(dir, 'state', 'run'))).mode & 0o777, 0o770);
      for (const owned of [
        paths.datadir,
        join(paths.datadir, 'ibdata1'),
        paths.tmpdir,
        paths.secureFileDir,
        paths.errorLog,
        paths.pidFile,
      ]) {
        assert.equal((await stat(owned)).uid, mysql.uid, owned);
      }
      const cnfDir = await stat(join(dir, 'state', 'work', 'session-1', 'baseline'));
      assert.equal(cnfDir.uid, 0, "the folder of the my.cnf stays root's: the server account cannot replace it");
    },
  );

  test('a shared sticky folder such as /tmp is never made private', async () => {
    await assert.rejects(privateDir('/tmp', mysql), /shared folder/);
    assert.equal((await stat('/tmp')).mode & 0o7777, 0o1777);
  });

  test('a folder above the state folder that the server account cannot pass is named, with the fix', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'qpswatch-access-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await assert.rejects(assertReachable(join(dir, 'state', 'run'), mysql, 'state_dir'), (err: unknown) => {
      assert.ok(err instanceof ServerUserError);
      assert.equal(
        err.message,
        `server_user ${mysql.name} cannot reach state_dir ` +
          `${join(dir, 'state', 'run')}: ${dir} is mode 0700 (owner uid 0, gid 0) ` +
          `and the server never runs as root; move state_dir under a folder it ` +
          `can pass through (e.g. /var/lib/qpswatch), or let it pass: chmod o+x ` +
          `${dir}`,
      );
      return true;
    });
  });

  for (const [flavor, version, usesScript] of [
    ['mysql', '8.0.36', false],
    ['percona', '8.0.36-28', false],
    ['mysql', '5.6.51', true],
  ] as const) {
    test(`${flavor} ${version}: init runs with --user=mysql on an empty datadir the server account owns`, async (t) => {
      const dir = await scratch();
      t.after(() => rm(dir, { recursive: true, force: true }));
      // A fake server (or install script) that records its argv and what it found.
      const fake = join(dir, usesScript ? 'mysql_install_db' : 'mysqld');
      await writeFile(
        fake,
        `#!/bin/sh\necho "$@" > ${dir}/argv\nstat -c '%u %a' ${dir}/state/data ` +
          `> ${dir}/datadir\nls -A ${dir}/state/data | wc -l >> ${dir}/datadir\n`,
      );
      await chmod(fake, 0o755);
      const bins: ServerBinaries = {
        flavor,
        basedir: dir,
        mysqld: usesScript ? join(dir, 'mysqld') : fake,
        version: parseVersion(version),
        versionText: version,
        ...(usesScript ? { installDb: fake } : {}),
      };
      const paths = serverPaths(join(dir, 'state'));
      await initDatadir({
        log: silentLog,
        binaries: bins,
        myCnfPath: join(dir, 'my.cnf'),
        paths,
        logFile: join(dir, 'init.log'),
      });
      const argv = (await readFile(join(dir, 'argv'), 'utf8')).trim().split(' ');
      assert.ok(argv.includes(`--user=${mysql.name}`), argv.join(' '));
      assert.equal(argv.includes('--initialize-insecure'), !usesScript);
      assert.deepEqual((await readFile(join(dir, 'datadir'), 'utf8')).trim().split(/\s+/), [
        String(mysql.uid),
        '750',
        '0',
      ]);
    });
  }
});

describe('checkCacheDir', { skip: asRoot ? false : 'chown to another user needs root' }, () => {
  test('a missing folder, or one of ours and private, passes', async (t) => {
    const dir = await scratch();
    t.after(() => rm(dir, { recursive: true, force: true }));
    await checkCacheDir(join(dir, 'not-yet'));
    await mkdir(join(dir, 'cache'), { mode: 0o750 });
    await checkCacheDir(join(dir, 'cache'));
  });

  test("another user's, a world-writable, a sticky folder and a file are refused, naming cache_dir", async (t) => {
    const dir = await scratch();
    t.after(() => rm(dir, { recursive: true, force: true }));
    const nobody = findAccount('nobody');
    assert.ok(nobody !== undefined, 'the nobody account');
    const theirs = join(dir, 'theirs');
    await mkdir(theirs, { mode: 0o755 });
    await chown(theirs, nobody.uid, nobody.gid);
    const open = join(dir, 'open');
    await mkdir(open);
    await chmod(open, 0o777);
    const sticky = join(dir, 'sticky');
    await mkdir(sticky);
    await chmod(sticky, 0o1777);
    const file = join(dir, 'file');
    await writeFile(file, '');
    const cases: Array<[string, RegExp]> = [
      [theirs, /belongs to user nobody \(uid \d+\), who could change what qpswatch compiles and runs as root/],
      [open, /is writable by every user \(mode 0?777\): make it private \(chmod o-w/],
      [sticky, /is a shared folder \(sticky\)/],
      [file, /is not a folder/],
    ];
    for (const [path, problem] of cases) {
      await assert.rejects(checkCacheDir(path), (err: Error) => {
        assert.ok(err instanceof UnsafeFolderError, path);
        assert.match(err.message, problem);
        assert.match(err.message, /choose another cache_dir$/);
        assert.ok(err.message.startsWith(path), 'names the folder first');
        return true;
      });
    }
  });
});
