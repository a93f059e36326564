import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareServerVariables } from '../../../src/analysis/index.js';

describe('compareServerVariables', () => {
  test('the same values on both sides: nothing differs, every name is counted', () => {
    const side = { sync_binlog: '0', innodb_buffer_pool_size: '1073741824', init_file: '' };
    assert.deepEqual(compareServerVariables(side, { ...side }), { compared: 3, differences: [] });
  });

  test('a changed value, and a name only one side has, by name', () => {
    const got = compareServerVariables(
      { sync_binlog: '0', innodb_log_files_in_group: '2', port: '<port>' },
      { sync_binlog: '1', innodb_snapshot_isolation: 'ON', port: '<port>' },
    );
    assert.deepEqual(got, {
      compared: 4,
      differences: [
        { name: 'innodb_log_files_in_group', baseline: '2' },
        { name: 'innodb_snapshot_isolation', candidate: 'ON' },
        { name: 'sync_binlog', baseline: '0', candidate: '1' },
      ],
    });
  });

  test("the release's own identity and its data's state are not settings: never listed, never counted", () => {
    const got = compareServerVariables(
      { version: '10.11.8-MariaDB', innodb_version: '10.11.8', gtid_binlog_pos: '0-1-20', sync_binlog: '0' },
      { version: '10.11.9-MariaDB', innodb_version: '10.11.9', gtid_binlog_pos: '0-1-22', sync_binlog: '0' },
    );
    assert.deepEqual(got, { compared: 1, differences: [] });
  });

  test('a list of flags keeps only the flags that differ; a flag one side lacks is named', () => {
    const got = compareServerVariables(
      { optimizer_switch: 'index_merge=on,mrr=off,rowid_filter=on' },
      { optimizer_switch: 'index_merge=on,mrr=on,rowid_filter=on,hash_join_cardinality=off' },
    );
    assert.deepEqual(got.differences, [
      {
        name: 'optimizer_switch',
        baseline: 'mrr=off,(no hash_join_cardinality)',
        candidate: 'mrr=on,hash_join_cardinality=off',
      },
    ]);
  });

  test('a comma list that is not flags is shown whole', () => {
    const got = compareServerVariables(
      { sql_mode: 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION' },
      { sql_mode: 'NO_ENGINE_SUBSTITUTION' },
    );
    assert.deepEqual(got.differences, [
      { name: 'sql_mode', baseline: 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION', candidate: 'NO_ENGINE_SUBSTITUTION' },
    ]);
  });
});
