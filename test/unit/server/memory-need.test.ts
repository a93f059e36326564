import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectedServerBytes } from '../../../src/server/index.js';

const MiB = 1024 ** 2;
const overhead = 384 * MiB;

test('a server takes its buffer pool, as the last line that sets it says, plus a fixed overhead', () => {
  const cases: Array<[string, number]> = [
    ['[mysqld]\ninnodb_buffer_pool_size = 1G\n', 1024 * MiB],
    ['[mysqld]\ninnodb-buffer-pool-size=512M\n', 512 * MiB],
    ['[mysqld]\ninnodb_buffer_pool_size = 134217728\n', 128 * MiB],
    ['[mysqld]\ninnodb_buffer_pool_size = 1G\ninnodb_buffer_pool_size = 6g\n', 6 * 1024 * MiB],
    ['[mysqld]\nport = 0\n', 128 * MiB],
  ];
  for (const [cnf, pool] of cases) assert.equal(expectedServerBytes(cnf), pool + overhead, cnf);
});
