import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SysbenchMissingError, findSysbench } from '../../../src/suite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-find-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function folderWith(name: string, mode: number | 'dir'): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  if (mode === 'dir') mkdirSync(join(folder, 'sysbench'));
  else {
    writeFileSync(join(folder, 'sysbench'), '#!/bin/sh\n');
    chmodSync(join(folder, 'sysbench'), mode);
  }
  return folder;
}

describe('findSysbench', () => {
  const notExecutable = folderWith('plain', 0o644);
  const folder = folderWith('folder', 'dir');
  const good = folderWith('good', 0o755);
  const alsoGood = folderWith('later', 0o755);

  test('returns the first executable sysbench on the path, skipping files that cannot run and folders', () => {
    assert.equal(
      findSysbench([join(dir, 'missing'), notExecutable, folder, good, alsoGood].join(':')),
      join(good, 'sysbench'),
    );
  });

  test('says how to install it when it is nowhere', () => {
    assert.throws(
      () => findSysbench([notExecutable, folder, ''].join(':')),
      (err: unknown) => {
        assert.ok(err instanceof SysbenchMissingError);
        assert.equal(
          err.message,
          `sysbench not found on PATH (${notExecutable}:${folder}); install it: apt-get install sysbench`,
        );
        assert.deepEqual(err.searched, [notExecutable, folder]);
        return true;
      },
    );
  });
});
