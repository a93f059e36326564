import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServerProfile, parseServerProfile, ServerProfileError } from '../../../src/server/index.js';

const GOOD = `
description: test profile
settings:
  innodb_buffer_pool_size: 64M
  innodb_flush_log_at_trx_commit: 2
  skip-name-resolve: true
  long_query_time: 0.5
overrides:
  - versions: ">=8.0.30 <8.1"
    flavors: [mysql, percona]
    set: { innodb_redo_log_capacity: 1G }
    remove: [innodb-buffer-pool-size]
  - versions: "10.11"
    remove: [innodb_redo_log_capacity]
`;

describe('parseServerProfile', () => {
  test('reads settings in file order and parses override ranges', () => {
    const profile = parseServerProfile(GOOD, 'test', '/x/test.yaml');
    assert.equal(profile.name, 'test');
    assert.equal(profile.description, 'test profile');
    assert.deepEqual(Object.entries(profile.settings), [
      ['innodb_buffer_pool_size', '64M'],
      ['innodb_flush_log_at_trx_commit', 2],
      ['skip-name-resolve', true],
      ['long_query_time', 0.5],
    ]);
    assert.equal(profile.overrides.length, 2);
    assert.deepEqual(profile.overrides[0]!.flavors, ['mysql', 'percona']);
    assert.deepEqual(
      profile.overrides[0]!.versions.comparators.map((c) => c.text),
      ['>=8.0.30', '<8.1'],
    );
    assert.equal(profile.overrides[1]!.flavors, undefined);
    assert.deepEqual(profile.overrides[1]!.set, {});
  });

  const bad: Array<[string, string, string, string]> = [
    // [name, yaml, field in the message, words of the message]
    ['not YAML', 'description: [x', '(top level)', 'not valid YAML'],
    [
      'unknown top-level key',
      'description: d\nsetting: {}',
      'setting',
      'the top-level keys are description, settings and overrides',
    ],
    ['missing description', 'settings: {}', 'description', 'one line that says what the profile is for'],
    ['null value', 'description: d\nsettings:\n  log_bin:', 'settings.log_bin', 'not a string, a number or true/false'],
    ['list value', 'description: d\nsettings:\n  log_bin: [a]', 'settings.log_bin', 'true writes the bare name'],
    [
      'value with a newline',
      'description: d\nsettings:\n  sql_mode: "A\\nfoo=1"',
      'settings.sql_mode',
      'contains a line break',
    ],
    [
      'infinite number',
      'description: d\nsettings:\n  long_query_time: .inf',
      'settings.long_query_time',
      'not a string, a number',
    ],
    [
      'bad option name',
      'description: d\nsettings:\n  "innodb buffer": 1',
      'settings.innodb buffer',
      'name is not an option name',
    ],
    [
      'bad range',
      'description: d\noverrides:\n  - versions: ">=8.0.x"',
      'overrides[0].versions',
      'a range such as ">=8.0.30 <8.1"',
    ],
    [
      'bad flavor',
      'description: d\noverrides:\n  - versions: "8.0"\n    flavors: [oracle]',
      'overrides[0].flavors[0]',
      'not a flavor (mariadb, mysql, percona)',
    ],
    [
      'unknown override key',
      'description: d\noverrides:\n  - versions: "8.0"\n    add: {}',
      'overrides[0].add',
      'is not a known key',
    ],
    [
      'remove of an option never set',
      'description: d\nsettings: { a: 1 }\noverrides:\n  - versions: "8.0"\n    remove: [query_cache_size]',
      'overrides[0].remove[0]',
      'not set by settings or an earlier override',
    ],
    ['owned datadir', 'description: d\nsettings:\n  datadir: /var/lib/mysql', 'settings.datadir', 'owned by qpswatch'],
    [
      'owned pid_file spelled with _',
      'description: d\nsettings:\n  pid_file: /x',
      'settings.pid_file',
      'remove "pid_file" from the profile',
    ],
    [
      'owned networking via skip-',
      'description: d\nsettings:\n  skip-networking: true',
      'settings.skip-networking',
      'owned by qpswatch',
    ],
    [
      'owned port via loose-',
      'description: d\noverrides:\n  - versions: "8.0"\n    set: { loose-port: 3307 }',
      'overrides[0].set.loose-port',
      'owned by qpswatch',
    ],
    [
      'same option twice',
      'description: d\nsettings:\n  innodb-log-file-size: 1G\n  innodb_log_file_size: 2G',
      'settings.innodb_log_file_size',
      'same option as "innodb-log-file-size"',
    ],
  ];
  for (const [name, yaml, field, words] of bad) {
    test(`rejects ${name}, naming file, field and fix`, () => {
      assert.throws(
        () => parseServerProfile(yaml, 'p', '/profiles/p.yaml'),
        (err: unknown) => {
          assert.ok(err instanceof ServerProfileError, String(err));
          assert.equal(err.file, '/profiles/p.yaml');
          assert.equal(err.field || '(top level)', field);
          assert.match(err.message, /^server profile \/profiles\/p\.yaml: /);
          assert.ok(err.message.includes(words), err.message);
          return true;
        },
      );
    });
  }

  test('a remove may name an option that an earlier override sets', () => {
    const profile = parseServerProfile(GOOD, 'test', '/x/test.yaml');
    assert.deepEqual(profile.overrides[1]!.remove, ['innodb_redo_log_capacity']);
  });
});

describe('loadServerProfile', () => {
  test('loads <dir>/<name>.yaml, and a missing one lists the profiles there', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'qpswatch-profiles-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'fast.yaml'), GOOD);
    await writeFile(join(dir, 'safe.yaml'), GOOD);
    const profile = await loadServerProfile('fast', dir);
    assert.equal(profile.source, join(dir, 'fast.yaml'));
    await assert.rejects(loadServerProfile('fsat', dir), (err: unknown) => {
      assert.ok(err instanceof ServerProfileError);
      assert.equal(err.file, join(dir, 'fsat.yaml'));
      assert.ok(err.message.includes('use one of: fast, safe'), err.message);
      return true;
    });
  });

  test('refuses a name that is a path', async () => {
    await assert.rejects(loadServerProfile('../../etc/passwd', '/tmp'), ServerProfileError);
  });
});
