import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CacheSizeCache, folderBytes, measureCacheSizes } from '../../../src/compile/cache-sizes.js';
import type { CacheSizes } from '../../../src/model/index.js';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

test('the folders are measured in bytes on disk, a missing one as 0', async () => {
  const root = await mkdtemp(join(tmpdir(), 'qpswatch-sizes-'));
  dirs.push(root);
  await mkdir(join(root, 'cache', 'ccache', 'a', 'b'), { recursive: true });
  await writeFile(join(root, 'cache', 'ccache', 'a', 'b', 'obj'), Buffer.alloc(64 * 1024, 1));
  const sizes = await measureCacheSizes({ cacheDir: join(root, 'cache'), stateDir: join(root, 'state') });
  assert.ok(sizes.bytes.ccache >= 64 * 1024, `ccache: ${sizes.bytes.ccache}`);
  assert.equal(sizes.bytes.mirrors, 0);
  assert.equal(sizes.bytes.builds, 0);
  const stop = new AbortController();
  stop.abort();
  await assert.rejects(folderBytes(join(root, 'cache'), stop.signal), { name: 'AbortError' });
});

test(
  'the size cache serves its last figure at once and measures again only ' + 'when it is older than its max age',
  async () => {
    let now = 0;
    let walks = 0;
    let finish: (() => void) | undefined;
    const measured: CacheSizes[] = [];
    const cache = new CacheSizeCache({
      maxAgeMs: 300_000,
      now: () => now,
      measure: async () => {
        walks += 1;
        await new Promise<void>((resolve) => (finish = resolve));
        return { measuredAt: new Date(now).toISOString(), bytes: { ccache: walks, mirrors: 0, builds: 0 } };
      },
      onMeasured: (s) => void measured.push(s),
    });
    assert.equal(cache.latest(), null, 'nothing yet, and no waiting for the walk');
    assert.equal(cache.latest(), null);
    assert.equal(walks, 1, 'one walk at a time');
    finish!();
    await cache.settled();
    assert.equal(cache.latest()?.bytes.ccache, 1);
    now = 299_000;
    assert.equal(cache.latest()?.bytes.ccache, 1);
    assert.equal(walks, 1, 'fresh enough: no walk');
    now = 300_000;
    assert.equal(cache.latest()?.bytes.ccache, 1, 'the old figure while the new walk runs');
    assert.equal(walks, 2);
    finish!();
    await cache.settled();
    assert.equal(cache.latest()?.bytes.ccache, 2);
    assert.equal(measured.length, 2);
  },
);

test('a failed walk keeps the last figure and is not retried before the max age', async () => {
  let now = 0;
  let walks = 0;
  const errors: unknown[] = [];
  const cache = new CacheSizeCache({
    maxAgeMs: 1000,
    now: () => now,
    measure: () => Promise.reject(new Error(`walk ${++walks}`)),
    onError: (e) => void errors.push(e),
  });
  cache.latest();
  await cache.settled();
  cache.latest();
  await cache.settled();
  assert.equal(walks, 1);
  now = 1000;
  assert.equal(cache.latest(), null);
  await cache.settled();
  assert.equal(errors.length, 2);
});
