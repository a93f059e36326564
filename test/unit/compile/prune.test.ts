import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPrune, INSTALL_MARKER, planPrune, type BuildEntry } from '../../../src/compile/index.js';

function entry(key: string, version: string, lastUsedAt: BuildEntry['lastUsedAt']): BuildEntry {
  return { key, version, installDir: `/s/builds/${key}/install`, lastUsedAt };
}

const BUILDS = [
  entry('base', '10.2.30', '2024-01-01T00:00:00Z'),
  entry('k9', '10.11.9', '2024-05-01T00:00:00Z'),
  entry('k9nops', '10.11.9', '2024-02-01T00:00:00Z'),
  entry('k10', '10.11.10', new Date('2024-03-01T00:00:00Z')),
  entry('k8', '10.11.8', Date.parse('2024-06-01T00:00:00Z')),
  entry('k7', '10.11.7', '2024-04-01T00:00:00Z'),
  entry('good', '10.11.6', '2023-01-01T00:00:00Z'),
];

describe('planPrune', () => {
  test(
    'keeps the protected builds and every build of the N newest versions; ' +
      'removes the rest, least recently used first',
    () => {
      const plan = planPrune({ builds: BUILDS, keep: new Set(['base', 'good']), keepLatest: 2 });
      assert.deepEqual(
        plan.keep.map((k) => `${k.build.key}:${k.reason}`),
        ['base:protected', 'k9:latest', 'k9nops:latest', 'k10:latest', 'good:protected'],
      );
      // 10.11.10 is newer than 10.11.9 by version, not by text; k7 was used before k8.
      assert.deepEqual(
        plan.remove.map((b) => b.key),
        ['k7', 'k8'],
      );
    },
  );

  test('keepLatest 0 keeps only the protected ones', () => {
    const plan = planPrune({ builds: BUILDS, keep: new Set(['base']), keepLatest: 0 });
    assert.deepEqual(
      plan.remove.map((b) => b.key),
      ['good', 'k9nops', 'k10', 'k7', 'k9', 'k8'],
    );
  });

  test('nothing to prune', () => {
    assert.deepEqual(planPrune({ builds: [], keep: new Set(), keepLatest: 3 }), { keep: [], remove: [] });
  });

  test('garbage in is an error', () => {
    assert.throws(() => planPrune({ builds: [entry('x', '10.11', 0)], keep: new Set(), keepLatest: 1 }), /10\.11/);
    assert.throws(
      () => planPrune({ builds: [entry('x', '10.11.1', 'yesterday')], keep: new Set(), keepLatest: 1 }),
      /lastUsedAt is not a time: yesterday/,
    );
    assert.throws(() => planPrune({ builds: [], keep: new Set(), keepLatest: -1 }), TypeError);
    assert.throws(() => planPrune({ builds: [], keep: new Set(), keepLatest: 1.5 }), TypeError);
  });
});

describe('applyPrune', () => {
  test("removes each planned build's folder, marker first, and leaves the kept ones", async () => {
    const state = await mkdtemp(join(tmpdir(), 'qpsw-prune-'));
    try {
      const make = async (key: string): Promise<BuildEntry> => {
        const installDir = join(state, 'builds', key, 'install');
        await mkdir(join(installDir, 'bin'), { recursive: true });
        await writeFile(join(installDir, 'bin', 'mariadbd'), '');
        await writeFile(join(state, 'builds', key, INSTALL_MARKER), '{}');
        return { key, version: '10.11.1', installDir, lastUsedAt: 0 };
      };
      const gone = await make('0000000000000001');
      const kept = await make('0000000000000002');
      const removed = await applyPrune({ keep: [{ build: kept, reason: 'protected' }], remove: [gone] });
      assert.deepEqual(removed, [join(state, 'builds', '0000000000000001')]);
      assert.deepEqual(await readdir(join(state, 'builds')), ['0000000000000002']);
      await access(join(kept.installDir, 'bin', 'mariadbd'));
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  });

  test('refuses a folder that is not laid out as builds/<key>/install', async () => {
    await assert.rejects(
      applyPrune({ keep: [], remove: [{ key: 'k1', version: '10.11.1', installDir: '/usr', lastUsedAt: 0 }] }),
      /not laid out as builds\/k1\/install; not deleting it/,
    );
    await assert.rejects(
      applyPrune({
        keep: [],
        remove: [{ key: 'k1', version: '10.11.1', installDir: '/s/builds/k2/install', lastUsedAt: 0 }],
      }),
      TypeError,
    );
  });
});
