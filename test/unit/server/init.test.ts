import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DatadirInitError,
  DatadirNotEmptyError,
  initDatadir,
  initDatadirArgv,
  serverPaths,
  usesInstallDb,
  type ServerBinaries,
} from '../../../src/server/index.js';
import { parseVersion, type Flavor } from '../../../src/version/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { letServerPass } from '../../helpers/server-user.js';

function binaries(
  flavor: Flavor,
  version: string,
  basedir: string,
  mysqld: string,
  installDb?: string,
): ServerBinaries {
  return {
    flavor,
    basedir,
    mysqld,
    version: parseVersion(version),
    versionText: `mysqld Ver ${version}`,
    ...(installDb ? { installDb } : {}),
  };
}

const CNF = '/state/t/my.cnf';
const DATA = '/state/t/data';

describe('initDatadirArgv', () => {
  const cases: Array<[string, ServerBinaries, string | undefined, string[]]> = [
    [
      'MariaDB 10.11 from the distribution',
      binaries('mariadb', '10.11.19', '/usr', '/usr/sbin/mariadbd', '/usr/bin/mariadb-install-db'),
      'mysql',
      [
        '/usr/bin/mariadb-install-db',
        `--defaults-file=${CNF}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        '--basedir=/usr',
        `--datadir=${DATA}`,
        '--user=mysql',
      ],
    ],
    [
      'MariaDB 10.3 built (mysql_install_db, no mariadb- name yet)',
      binaries('mariadb', '10.3.39', '/b/ma10339', '/b/ma10339/bin/mysqld', '/b/ma10339/scripts/mysql_install_db'),
      undefined,
      [
        '/b/ma10339/scripts/mysql_install_db',
        `--defaults-file=${CNF}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        '--basedir=/b/ma10339',
        `--datadir=${DATA}`,
      ],
    ],
    [
      'MariaDB 10.2 (no --skip-test-db)',
      binaries('mariadb', '10.2.44', '/b/ma10244', '/b/ma10244/bin/mysqld', '/b/ma10244/scripts/mysql_install_db'),
      'mysql',
      [
        '/b/ma10244/scripts/mysql_install_db',
        `--defaults-file=${CNF}`,
        '--auth-root-authentication-method=normal',
        '--basedir=/b/ma10244',
        `--datadir=${DATA}`,
        '--user=mysql',
      ],
    ],
    [
      'MariaDB 10.0 (neither option)',
      binaries('mariadb', '10.0.38', '/b/ma10038', '/b/ma10038/bin/mysqld', '/b/ma10038/scripts/mysql_install_db'),
      undefined,
      ['/b/ma10038/scripts/mysql_install_db', `--defaults-file=${CNF}`, '--basedir=/b/ma10038', `--datadir=${DATA}`],
    ],
    [
      'MySQL 8.0',
      binaries('mysql', '8.0.36', '/b/my8036', '/b/my8036/bin/mysqld'),
      'mysql',
      [
        '/b/my8036/bin/mysqld',
        `--defaults-file=${CNF}`,
        '--initialize-insecure',
        '--basedir=/b/my8036',
        `--datadir=${DATA}`,
        '--user=mysql',
      ],
    ],
    [
      'MySQL 5.7',
      binaries('mysql', '5.7.44', '/b/my5744', '/b/my5744/bin/mysqld'),
      'mysql',
      [
        '/b/my5744/bin/mysqld',
        `--defaults-file=${CNF}`,
        '--initialize-insecure',
        '--basedir=/b/my5744',
        `--datadir=${DATA}`,
        '--user=mysql',
      ],
    ],
    [
      'MySQL 5.6 (scripts/mysql_install_db)',
      binaries('mysql', '5.6.51', '/b/my5651', '/b/my5651/bin/mysqld', '/b/my5651/scripts/mysql_install_db'),
      'mysql',
      [
        '/b/my5651/scripts/mysql_install_db',
        `--defaults-file=${CNF}`,
        '--basedir=/b/my5651',
        `--datadir=${DATA}`,
        '--user=mysql',
      ],
    ],
    [
      'Percona Server 8.0 follows MySQL',
      binaries('percona', '8.0.36-28', '/b/ps8036', '/b/ps8036/bin/mysqld'),
      undefined,
      [
        '/b/ps8036/bin/mysqld',
        `--defaults-file=${CNF}`,
        '--initialize-insecure',
        '--basedir=/b/ps8036',
        `--datadir=${DATA}`,
      ],
    ],
    [
      'Percona Server 5.6 follows MySQL 5.6',
      binaries('percona', '5.6.51-91.0', '/b/ps5651', '/b/ps5651/bin/mysqld', '/b/ps5651/scripts/mysql_install_db'),
      undefined,
      ['/b/ps5651/scripts/mysql_install_db', `--defaults-file=${CNF}`, '--basedir=/b/ps5651', `--datadir=${DATA}`],
    ],
  ];
  for (const [name, bins, user, expected] of cases) {
    test(name, () => {
      assert.deepEqual(
        initDatadirArgv({ binaries: bins, myCnfPath: CNF, datadir: DATA, ...(user !== undefined ? { user } : {}) }),
        expected,
      );
    });
  }

  test('an install-script flavor without the script is a programming error, said plainly', () => {
    assert.throws(
      () =>
        initDatadirArgv({
          binaries: binaries('mysql', '5.6.51', '/b', '/b/bin/mysqld'),
          myCnfPath: CNF,
          datadir: DATA,
        }),
      /install script/,
    );
  });
});

describe('usesInstallDb', () => {
  const cases: Array<[Flavor, string, boolean]> = [
    ['mariadb', '10.11.9', true],
    ['mariadb', '5.5.68', true],
    ['mysql', '5.6.51', true],
    ['mysql', '5.7.5', true],
    ['mysql', '5.7.6', false],
    ['mysql', '8.0.36', false],
    ['percona', '8.0.36-28', false],
    ['percona', '5.6.51-91.0', true],
  ];
  for (const [flavor, version, expected] of cases) {
    test(`${flavor} ${version}: ${expected}`, () =>
      assert.equal(usesInstallDb(flavor, parseVersion(version)), expected));
  }
});

describe('initDatadir', () => {
  test('refuses a datadir that is not empty, before running anything', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'qpswatch-init-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const paths = serverPaths(dir);
    await mkdir(paths.datadir, { recursive: true });
    await writeFile(join(paths.datadir, 'ibdata1'), '');
    const bins = binaries(
      'mariadb',
      '10.11.9',
      '/nonexistent',
      '/nonexistent/sbin/mariadbd',
      '/nonexistent/bin/mariadb-install-db',
    );
    await assert.rejects(
      initDatadir({ log: silentLog, binaries: bins, myCnfPath: CNF, paths, logFile: join(dir, 'init.log') }),
      (err: unknown) => {
        assert.ok(err instanceof DatadirNotEmptyError);
        assert.equal(err.datadir, paths.datadir);
        assert.ok(err.message.includes('ibdata1') && err.message.includes('remove it first'), err.message);
        return true;
      },
    );
  });

  test('a failing install command reports its error lines and log file', async (t) => {
    const dir = letServerPass(await mkdtemp(join(tmpdir(), 'qpswatch-init-')));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const script = join(dir, 'mariadb-install-db');
    await writeFile(
      script,
      "#!/bin/sh\necho 'Installing system tables'\necho '2026-01-01 0 [ERROR] " +
        "InnoDB: data file is too small' >&2\nexit 1\n",
    );
    await chmod(script, 0o755);
    const bins = binaries('mariadb', '10.11.9', dir, join(dir, 'mariadbd'), script);
    const paths = serverPaths(join(dir, 'state'));
    const logFile = join(dir, 'init.log');
    await assert.rejects(
      initDatadir({ log: silentLog, binaries: bins, myCnfPath: CNF, paths, logFile }),
      (err: unknown) => {
        assert.ok(err instanceof DatadirInitError);
        assert.deepEqual(err.logErrors, ['2026-01-01 0 [ERROR] InnoDB: data file is too small']);
        assert.ok(err.message.includes(logFile));
        return true;
      },
    );
  });
});
