import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFreeSpace, describeBytes, DiskSpaceError, formatBytes, freeSpace } from '../../../src/compile/index.js';

describe('formatBytes', () => {
  const cases: Array<[number, string]> = [
    [0, '0 bytes'],
    [1023, '1023 bytes'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [10 * 1024 ** 3 + 300 * 1024 ** 2, '10.3 GiB'],
    [2 ** 60, '1.0 EiB'],
  ];
  for (const [bytes, text] of cases) test(`${bytes} -> ${text}`, () => assert.equal(formatBytes(bytes), text));

  test('garbage is an error, not NaN', () => {
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) assert.throws(() => formatBytes(bad), TypeError);
  });

  test('describeBytes gives every digit', () => {
    assert.equal(describeBytes(2 ** 60), '1.0 EiB (1152921504606846976 bytes)');
  });
});

describe('checkFreeSpace', () => {
  test('passes when there is room and says how much', async () => {
    const free = await checkFreeSpace(tmpdir(), 0);
    assert.ok(free.freeBytes > 0);
    assert.equal(free.dir, tmpdir());
  });

  test('measures the nearest existing parent of a folder not made yet', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qpsw-disk-'));
    try {
      const free = await freeSpace(join(dir, 'state', 'builds'));
      assert.equal(free.dir, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('refuses with the free and needed bytes and the fix', async () => {
    await assert.rejects(checkFreeSpace(tmpdir(), 2 ** 60), (err: unknown) => {
      assert.ok(err instanceof DiskSpaceError);
      assert.equal(err.neededBytes, 2 ** 60);
      assert.ok(err.freeBytes < 2 ** 60);
      assert.equal(
        err.message,
        `not enough free disk space in ${tmpdir()}: ` +
          `${describeBytes(err.freeBytes)} free, 1.0 EiB (1152921504606846976 ` +
          `bytes) needed to build; ` +
          ('free some space (`qpswatch prune` deletes old installed builds) or ' +
            'lower the minimum free space for builds (min_free_bytes)'),
      );
      return true;
    });
  });

  test('a minimum that is not a number is a programming error', async () => {
    await assert.rejects(checkFreeSpace(tmpdir(), Number.NaN), TypeError);
  });
});
