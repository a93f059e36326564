import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { listServerProfiles, loadServerProfile, resolveSettings } from '../../../src/server/index.js';
import { parseVersion, type Flavor } from '../../../src/version/index.js';

function settingsFor(
  profile: Awaited<ReturnType<typeof loadServerProfile>>,
  flavor: Flavor,
  version: string,
): Map<string, unknown> {
  return new Map(resolveSettings(profile, { flavor, version: parseVersion(version) }));
}

describe('shipped server profiles', () => {
  test('relaxed, durable, small-server and studies are shipped and load', async () => {
    const names = await listServerProfiles();
    for (const name of ['relaxed', 'durable', 'small-server', 'studies']) {
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      const profile = await loadServerProfile(name);
      assert.ok(profile.description.length > 20);
    }
  });

  test('relaxed and durable differ only in fsync per commit', async () => {
    const relaxed = settingsFor(await loadServerProfile('relaxed'), 'mariadb', '10.11.9');
    const durable = settingsFor(await loadServerProfile('durable'), 'mariadb', '10.11.9');
    assert.equal(relaxed.get('innodb_flush_log_at_trx_commit'), 2);
    assert.equal(relaxed.get('sync_binlog'), 0);
    assert.equal(durable.get('innodb_flush_log_at_trx_commit'), 1);
    assert.equal(durable.get('sync_binlog'), 1);
    for (const [name, value] of relaxed) {
      if (name !== 'innodb_flush_log_at_trx_commit' && name !== 'sync_binlog')
        assert.equal(durable.get(name), value, name);
    }
    assert.equal(relaxed.get('performance_schema'), 0);
    assert.equal(relaxed.get('log-bin'), 'binlog');
    assert.equal(relaxed.get('innodb_buffer_pool_size'), '1G');
  });

  // [profile, flavor, version, options that must be there with these values, options that must be gone]
  const cases: Array<[string, Flavor, string, Record<string, unknown>, string[]]> = [
    ['relaxed', 'mariadb', '10.11.9', { innodb_log_file_size: '512M' }, ['innodb_redo_log_capacity']],
    ['relaxed', 'mariadb', '10.4.33', { innodb_log_file_size: '256M' }, ['innodb_redo_log_capacity']],
    ['relaxed', 'mysql', '8.0.36', { innodb_redo_log_capacity: '512M' }, ['innodb_log_file_size']],
    ['relaxed', 'percona', '8.0.36-28', { innodb_redo_log_capacity: '512M' }, ['innodb_log_file_size']],
    ['relaxed', 'mysql', '8.0.28', { innodb_log_file_size: '256M' }, ['innodb_redo_log_capacity']],
    ['durable', 'mysql', '8.4.3', { innodb_redo_log_capacity: '512M', sync_binlog: 1 }, ['innodb_log_file_size']],
    [
      'small-server',
      'mariadb',
      '10.11.9',
      { innodb_log_file_size: '8G', innodb_undo_tablespaces: 32, query_cache_size: 0 },
      ['innodb_buffer_pool_instances', 'innodb_page_cleaners', 'innodb_redo_log_capacity'],
    ],
    [
      'small-server',
      'mariadb',
      '10.4.33',
      { innodb_log_file_size: '4G', innodb_buffer_pool_instances: 1, innodb_page_cleaners: 1 },
      [],
    ],
    ['small-server', 'mariadb', '10.1.48', { innodb_buffer_pool_instances: 1 }, ['innodb_page_cleaners']],
    [
      'small-server',
      'mariadb',
      '11.4.1',
      { innodb_log_file_size: '8G' },
      ['innodb_change_buffering', 'innodb_page_cleaners'],
    ],
    [
      'small-server',
      'mysql',
      '5.6.51',
      { innodb_log_file_size: '4G', query_cache_size: 0 },
      ['innodb_page_cleaners', 'innodb_undo_tablespaces', 'default_authentication_plugin'],
    ],
    ['small-server', 'mysql', '5.7.44', { innodb_page_cleaners: 1, query_cache_type: 0 }, ['innodb_idle_flush_pct']],
    [
      'small-server',
      'mysql',
      '8.0.28',
      {
        innodb_log_file_size: '4G',
        default_authentication_plugin: 'mysql_native_password',
        innodb_idle_flush_pct: 1,
        innodb_log_writer_threads: 0,
      },
      ['query_cache_size', 'query_cache_type', 'innodb_redo_log_capacity'],
    ],
    [
      'small-server',
      'mysql',
      '8.0.36',
      { innodb_redo_log_capacity: '8G' },
      ['innodb_log_file_size', 'query_cache_size', 'query_cache_type', 'innodb_checksum_algorithm'],
    ],
    [
      'small-server',
      'percona',
      '8.0.36-28',
      { innodb_redo_log_capacity: '8G' },
      ['innodb_log_file_size', 'query_cache_size'],
    ],
    [
      'small-server',
      'mysql',
      '8.4.3',
      { innodb_redo_log_capacity: '8G' },
      ['default_authentication_plugin', 'query_cache_type'],
    ],
    // studies: metadata_locks_hash_instances for MySQL 5.6.8 to 5.7 only; the binlog switched off where it is on by
    // default.
    [
      'studies',
      'mariadb',
      '10.11.9',
      { innodb_doublewrite: 0, innodb_flush_log_at_trx_commit: 2, innodb_log_file_size: '4G' },
      ['metadata_locks_hash_instances', 'skip-log-bin', 'log-bin'],
    ],
    ['studies', 'mariadb', '10.4.33', { innodb_log_file_size: '2G' }, ['metadata_locks_hash_instances']],
    [
      'studies',
      'mysql',
      '5.6.51',
      { metadata_locks_hash_instances: 256, innodb_log_file_size: '2G' },
      ['skip-log-bin', 'innodb_redo_log_capacity'],
    ],
    [
      'studies',
      'mysql',
      '5.7.44',
      { metadata_locks_hash_instances: 256, innodb_lru_scan_depth: 2048 },
      ['skip-log-bin'],
    ],
    [
      'studies',
      'mysql',
      '8.0.28',
      { 'skip-log-bin': true, innodb_log_file_size: '2G' },
      ['metadata_locks_hash_instances'],
    ],
    [
      'studies',
      'percona',
      '8.0.36-28',
      { 'skip-log-bin': true, innodb_redo_log_capacity: '4G' },
      ['metadata_locks_hash_instances', 'innodb_log_file_size'],
    ],
  ];
  for (const [name, flavor, version, present, absent] of cases) {
    test(`${name} for ${flavor} ${version}`, async () => {
      const settings = settingsFor(await loadServerProfile(name), flavor, version);
      for (const [option, value] of Object.entries(present)) assert.equal(settings.get(option), value, option);
      for (const option of absent) assert.ok(!settings.has(option), `${option} should be removed`);
    });
  }
});
