import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildPathsFor,
  installDirFor,
  isInstallComplete,
  markInstallComplete,
  readInstallRecord,
  type InstallRecord,
} from '../../../src/compile/index.js';

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

    const record: InstallRecord = {
      key: KEY,
      worktree: '/w',
      profile: 'demo',
      finishedAt: '2024-01-01T00:00:00.000Z',
      durationsMs: { configure: 1, build: 2, install: 3 },
    };
    await markInstallComplete(paths, record);
    assert.equal(await isInstallComplete(state, KEY), true);
    assert.deepEqual(await readInstallRecord(state, KEY), record);

    await writeFile(paths.marker, '{"key": ');
    assert.equal(await readInstallRecord(state, KEY), undefined);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
});

test(
  'a finished install is readable by every user, whatever the umask it ' +
    'was written with (the server user reads it)',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qpsw-open-'));
    const previous = process.umask(0o077);
    try {
      const paths = buildPathsFor(dir, '0123456789abcdef');
      await mkdir(join(paths.installDir, 'bin'), { recursive: true });
      await mkdir(join(paths.installDir, 'share'), { recursive: true });
      await writeFile(join(paths.installDir, 'bin', 'mariadbd'), '#!/bin/sh\n', { mode: 0o700 });
      await writeFile(join(paths.installDir, 'share', 'errmsg.sys'), 'x', { mode: 0o600 });
      await markInstallComplete(paths, {
        key: '0123456789abcdef',
        profile: 'p',
        finishedAt: '2026-12-01T00:00:00Z',
        durationsMs: {},
      });
      const mode = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;
      assert.equal(await mode(join(dir, 'builds')), 0o755);
      assert.equal(await mode(paths.root), 0o755);
      assert.equal(await mode(join(paths.installDir, 'bin')), 0o755);
      assert.equal(
        await mode(join(paths.installDir, 'bin', 'mariadbd')),
        0o755,
        'an executable stays executable, for all',
      );
      assert.equal(await mode(join(paths.installDir, 'share', 'errmsg.sys')), 0o644);
    } finally {
      process.umask(previous);
      await rm(dir, { recursive: true, force: true });
    }
  },
);
