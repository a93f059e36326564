import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseServerProfile,
  renderMyCnf,
  ServerProfileError,
  SocketPathTooLongError,
  type ServerPaths,
  type ServerProfile,
} from '../../../src/server/index.js';
import { parseVersion, type Flavor } from '../../../src/version/index.js';

const PATHS: ServerPaths = {
  datadir: '/state/t1/data',
  socket: '/state/t1/mysqld.sock',
  pidFile: '/state/t1/mysqld.pid',
  errorLog: '/state/t1/error.log',
  tmpdir: '/state/t1/tmp',
  secureFileDir: '/state/t1/files',
};

const PROFILE = parseServerProfile(
  `
description: overrides under test
settings:
  innodb_buffer_pool_size: 1G
  innodb_log_file_size: 512M
  query_cache_size: 0
  log-bin: true
  performance_schema: false
  loose-innodb_foo: false
overrides:
  - versions: "<10.5"
    flavors: [mariadb]
    set: { innodb_log_file_size: 256M }
  - versions: ">=8.0.30"
    flavors: [mysql, percona]
    remove: [innodb_log_file_size]
    set: { innodb_redo_log_capacity: 512M }
  - versions: ">=8.0"
    flavors: [mysql, percona]
    remove: [query-cache-size]
  - versions: ">=10.11"
    flavors: [mariadb]
    set: { innodb-buffer-pool-size: 2G }
`,
  'under-test',
  '/profiles/under-test.yaml',
);

function settingsOf(text: string): string[] {
  const marker = '# server profile "under-test"\n';
  return text
    .slice(text.indexOf(marker) + marker.length)
    .trim()
    .split('\n');
}

describe('renderMyCnf overrides', () => {
  const cases: Array<[Flavor, string, string[]]> = [
    [
      'mariadb',
      '10.11.9',
      [
        'innodb-buffer-pool-size=2G',
        'innodb_log_file_size=512M',
        'query_cache_size=0',
        'log-bin',
        'skip-performance_schema',
        'loose-skip-innodb_foo',
      ],
    ],
    [
      'mariadb',
      '10.4.33',
      [
        'innodb_buffer_pool_size=1G',
        'innodb_log_file_size=256M',
        'query_cache_size=0',
        'log-bin',
        'skip-performance_schema',
        'loose-skip-innodb_foo',
      ],
    ],
    [
      'mysql',
      '8.0.36',
      [
        'innodb_buffer_pool_size=1G',
        'log-bin',
        'skip-performance_schema',
        'loose-skip-innodb_foo',
        'innodb_redo_log_capacity=512M',
      ],
    ],
    [
      'percona',
      '8.0.36-28',
      [
        'innodb_buffer_pool_size=1G',
        'log-bin',
        'skip-performance_schema',
        'loose-skip-innodb_foo',
        'innodb_redo_log_capacity=512M',
      ],
    ],
    [
      'mysql',
      '8.0.29',
      [
        'innodb_buffer_pool_size=1G',
        'innodb_log_file_size=512M',
        'log-bin',
        'skip-performance_schema',
        'loose-skip-innodb_foo',
      ],
    ],
    [
      'mysql',
      '5.7.44',
      [
        'innodb_buffer_pool_size=1G',
        'innodb_log_file_size=512M',
        'query_cache_size=0',
        'log-bin',
        'skip-performance_schema',
        'loose-skip-innodb_foo',
      ],
    ],
    // MariaDB 5.5 shares version numbers with MySQL: MySQL-only overrides must not touch it.
    [
      'mariadb',
      '5.5.68',
      [
        'innodb_buffer_pool_size=1G',
        'innodb_log_file_size=256M',
        'query_cache_size=0',
        'log-bin',
        'skip-performance_schema',
        'loose-skip-innodb_foo',
      ],
    ],
  ];
  for (const [flavor, version, expected] of cases) {
    test(`${flavor} ${version}`, () => {
      const text = renderMyCnf(PROFILE, { flavor, version: parseVersion(version) }, PATHS);
      assert.deepEqual(settingsOf(text), expected);
    });
  }
});

describe('renderMyCnf owned options', () => {
  test('writes paths first in [mysqld], and skip-networking without a network', () => {
    const text = renderMyCnf(PROFILE, { flavor: 'mariadb', version: parseVersion('10.11.9') }, PATHS);
    const lines = text.split('\n');
    assert.match(lines[0]!, /^# Written by qpswatch for mariadb 10\.11\.9 from server profile "under-test"/);
    assert.deepEqual(lines.slice(2, 10), [
      '[mysqld]',
      'datadir=/state/t1/data',
      'socket=/state/t1/mysqld.sock',
      'pid-file=/state/t1/mysqld.pid',
      'log-error=/state/t1/error.log',
      'tmpdir=/state/t1/tmp',
      'secure_file_priv=/state/t1/files',
      'skip-networking',
    ]);
    assert.ok(!text.includes('mysqlx'));
    assert.ok(text.endsWith('\n'));
  });

  test('writes port and bind-address with a network, and turns MySQL X off', () => {
    const text = renderMyCnf(PROFILE, { flavor: 'mysql', version: parseVersion('8.0.36') }, PATHS, {
      port: 13306,
      bindAddress: '127.0.0.1',
    });
    assert.ok(text.includes('\nport=13306\nbind-address=127.0.0.1\nloose-mysqlx=OFF\n'), text);
    assert.ok(!text.includes('skip-networking'));
  });

  for (const [flavor, version] of [
    ['mariadb', '10.1.48'],
    ['mariadb', '11.4.2'],
    ['mysql', '5.6.51'],
    ['mysql', '5.7.44'],
    ['mysql', '8.0.36'],
    ['percona', '8.0.36'],
  ] as const) {
    test(`${flavor} ${version}: secure_file_priv is the session's own folder`, () => {
      const text = renderMyCnf(PROFILE, { flavor, version: parseVersion(version) }, PATHS, {
        port: 13306,
        bindAddress: '127.0.0.1',
      });
      assert.equal(text.match(/^secure_file_priv=.*$/gm)?.join('|'), 'secure_file_priv=/state/t1/files');
    });
  }

  for (const option of [
    'secure_file_priv',
    'secure-file-priv',
    'skip-grant-tables',
    'loose-skip-grant-tables',
    'user',
  ]) {
    test(`a profile may not set ${option}`, () => {
      assert.throws(
        () =>
          parseServerProfile(
            `description: x\nsettings:\n  ${option}: ${option.includes('skip') ? 'true' : '/'}\n`,
            'bad',
            'bad.yaml',
          ),
        (err: unknown) =>
          err instanceof ServerProfileError &&
          err.message.includes(option) &&
          err.message.includes('owned by qpswatch'),
      );
    });
  }

  test('refuses a socket path over the unix limit, naming it', () => {
    const socket = `/${'s'.repeat(110)}/mysqld.sock`;
    assert.throws(
      () => renderMyCnf(PROFILE, { flavor: 'mariadb', version: parseVersion('10.11.9') }, { ...PATHS, socket }),
      (err: unknown) =>
        err instanceof SocketPathTooLongError &&
        err.socket === socket &&
        err.message.includes('shorter state directory'),
    );
  });

  test('refuses owned options in a profile built in code', () => {
    const profile: ServerProfile = { ...PROFILE, settings: { ...PROFILE.settings, socket: '/tmp/x.sock' } };
    assert.throws(
      () => renderMyCnf(profile, { flavor: 'mariadb', version: parseVersion('10.11.9') }, PATHS),
      (err: unknown) => err instanceof ServerProfileError && err.message.includes('"socket"'),
    );
  });
});

describe('renderMyCnf values', () => {
  const cases: Array<[string | number, string]> = [
    ['NO_ENGINE_SUBSTITUTION,NO_UNSIGNED_SUBTRACTION', 'v=NO_ENGINE_SUBSTITUTION,NO_UNSIGNED_SUBTRACTION'],
    [134217728, 'v=134217728'],
    [0.5, 'v=0.5'],
    ['a#b', 'v="a#b"'],
    [' padded', 'v=" padded"'],
    ['', 'v=""'],
    ['C:\\dir', 'v=C:\\\\dir'],
    ['say "hi"', 'v="say \\"hi\\""'],
  ];
  for (const [value, line] of cases) {
    test(`${JSON.stringify(value)} -> ${line}`, () => {
      const profile: ServerProfile = { ...PROFILE, settings: { v: value }, overrides: [] };
      const text = renderMyCnf(profile, { flavor: 'mariadb', version: parseVersion('10.11.9') }, PATHS);
      assert.deepEqual(settingsOf(text), [line]);
    });
  }

  const bad: Array<[string | number, string]> = [
    ['x\nfoo=1', 'contains a line break'],
    [Number.NaN, 'not a plain decimal number'],
    [1e21, 'not a plain decimal number'],
  ];
  for (const [value, words] of bad) {
    test(`refuses ${JSON.stringify(String(value))}`, () => {
      const profile: ServerProfile = { ...PROFILE, settings: { v: value }, overrides: [] };
      assert.throws(
        () => renderMyCnf(profile, { flavor: 'mariadb', version: parseVersion('10.11.9') }, PATHS),
        (err: unknown) =>
          err instanceof ServerProfileError && err.message.includes(words) && err.message.includes('settings.v'),
      );
    });
  }
});
