import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPathsFor, installDirFor, isInstallComplete, markInstallComplete, readInstallRecord, type InstallRecord } from '../../../src/compile/index.js';

const KEY = '0123456789abcdef';

test('a keyed build lives under builds/<key>', () => {
  assert.deepEqual(buildPathsFor('/var/lib/qpswatch', KEY), {
    root: `/var/lib/qpswatch/builds/${KEY}`,
    installDir: `/var/lib/qpswatch/builds/${KEY}/install`,
    logFile: `/var/lib/qpswatch/builds/${KEY}/build.log`,
    marker: `/var/lib/qpswatch/builds/${KEY}/install-complete.json`,
  });
  assert.equal(installDirFor('/s', KEY), `/s/builds/${KEY}/install`);
});

test('a key that is not 16 hex characters never becomes a path', () => {
  for (const bad of ['', '../../etc', '0123456789ABCDEF', '0123456789abcde', '0123456789abcdef0']) {
    assert.throws(() => buildPathsFor('/s', bad), TypeError, bad);
  }
});

test('only the marker says an install is complete; a half-done install or a torn marker does not', async () => {
  const state = await mkdtemp(join(tmpdir(), 'qpsw-paths-'));
  try {
    const paths = buildPathsFor(state, KEY);
    await mkdir(join(paths.installDir, 'bin'), { recursive: true });
    assert.equal(await isInstallComplete(state, KEY), false);

    const record: InstallRecord = { key: KEY, worktree: '/w', profile: 'demo', finishedAt: '2024-01-01T00:00:00.000Z', durationsMs: { configure: 1, build: 2, install: 3 } };
    await markInstallComplete(paths, record);
    assert.equal(await isInstallComplete(state, KEY), true);
    assert.deepEqual(await readInstallRecord(state, KEY), record);

    await writeFile(paths.marker, '{"key": ');
    assert.equal(await readInstallRecord(state, KEY), undefined);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
});
