import { defaultEnv, run } from '../../src/exec/index.js';

/** ccache's counters (ccache --print-stats) that say how a build used the cache. */
export interface CcacheCounters {
  readonly hits: number;
  readonly misses: number;
}

export async function ccacheCounters(ccacheDir: string): Promise<CcacheCounters> {
  const result = await run({
    argv: ['ccache', '--print-stats'],
    env: { ...defaultEnv(), CCACHE_DIR: ccacheDir },
    allowFailure: true,
  });
  const count = (name: string): number => Number(new RegExp(`^${name}\\t(\\d+)$`, 'm').exec(result.stdout)?.[1] ?? 0);
  return {
    hits: count('direct_cache_hit') + count('preprocessed_cache_hit'),
    misses: count('cache_miss'),
  };
}

/** The hits and misses of one build: the counters' growth while it ran; the rate undefined when nothing compiled. */
export function ccacheDelta(
  before: CcacheCounters,
  after: CcacheCounters,
): CcacheCounters & { rate: number | undefined } {
  const hits = after.hits - before.hits;
  const misses = after.misses - before.misses;
  return { hits, misses, rate: hits + misses > 0 ? hits / (hits + misses) : undefined };
}

/** Bytes a folder holds on disk (du), 0 when it is not there. */
export async function diskBytes(path: string): Promise<number> {
  const result = await run({ argv: ['du', '-s', '-B1', '--', path], allowFailure: true });
  if (result.exitCode !== 0) return 0;
  return Number(/^(\d+)/.exec(result.stdout)?.[1] ?? 0);
}

export function mb(bytes: number): string {
  return `${Math.round(bytes / 1e6)} MB`;
}
