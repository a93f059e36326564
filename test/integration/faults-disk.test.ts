import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { messageLines, runCli } from '../helpers/cli.js';

/**
 * The store's disk fills up during a write: a small tmpfs, mounted by the test, holds the state folder. The write
 * fails with one line that says the disk is full and where, and what was stored before is all still there.
 */
const root = mkdtempSync('/tmp/qpsw-disk-');
const state = join(root, 'state');
const config = join(root, 'qpswatch.yaml');
let mounted = false;

before(() => {
  mkdirSync(state);
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m,mode=0750', 'tmpfs', state], { encoding: 'utf8' });
  mounted = mount.status === 0;
  writeFileSync(config, `state_dir: ${state}\n`);
});

after(() => {
  if (mounted) spawnSync('umount', [state]);
  rmSync(root, { recursive: true, force: true });
});

const HEADER = 'flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o\n';
const rows = (count: number, version: string): string =>
  HEADER +
  Array.from({ length: count }, (_, i) => `mariadb,${version},test-with-a-long-name-${i},1,1000,0.002,5,0,0,0\n`).join(
    '',
  );

test(
  'a full disk during an import: one line naming the full disk, and the rows stored before are all kept',
  { skip: process.getuid?.() === 0 ? false : 'mounting a tmpfs needs root' },
  async (t) => {
    assert.ok(mounted, 'the tmpfs is mounted');
    writeFileSync(join(root, 'first.csv'), rows(3, '10.11.6'));
    const first = await runCli(['--config', config, 'import', join(root, 'first.csv')], { cwd: root });
    assert.equal(first.code, 0, first.stderr);
    // Fill what is left of the tmpfs, then ask for a write that needs room.
    spawnSync('dd', ['if=/dev/zero', `of=${join(state, 'filler')}`, 'bs=64k'], { encoding: 'utf8' });
    writeFileSync(join(root, 'big.csv'), rows(20_000, '10.11.7'));
    const full = await runCli(['--config', config, 'import', join(root, 'big.csv')], { cwd: root });
    assert.notEqual(full.code, 0);
    const lines = messageLines(full.stderr);
    assert.equal(lines.length, 1, full.stderr);
    t.diagnostic(lines[0]!);
    assert.match(lines[0]!, /full/i);
    assert.match(lines[0]!, new RegExp(state.replace(/[/.-]/g, '\\$&')));
    rmSync(join(state, 'filler'));
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(state) });
    try {
      const kept = await store.listImportedResults();
      assert.deepEqual(
        kept.map((r) => r.version),
        ['10.11.6', '10.11.6', '10.11.6'],
        'the first import whole, nothing of the second',
      );
    } finally {
      await store.close();
    }
    // With room again, the same import goes through.
    const again = await runCli(['--config', config, 'import', join(root, 'first.csv'), '--replace'], { cwd: root });
    assert.equal(again.code, 0, again.stderr);
  },
);
