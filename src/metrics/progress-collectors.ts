import { Gauge, type Registry } from 'prom-client';
import { cacheKinds, secondsLeft, type WorkProgress } from '../model/index.js';
import type { ProgressRead } from './progress-source.js';

const KIND = ['kind'] as const;
// An unlabeled gauge always prints a sample (0 when unset): the tag label lets an unknown ETA have none.
const TAG = ['tag'] as const;

/**
 * How far the running build and session are, and the cache's size. A ratio is 0 while nothing of its kind runs; an
 * ETA has no sample while nothing runs or nothing says when it ends, so a panel never reads "0 s left" as news.
 */
export function registerProgressCollectors(registry: Registry, read: ProgressRead): void {
  workGauges(
    registry,
    read,
    'build',
    'The running build: the share of its compile step done (ninja [n/m], make percent), 0..1; 0 when none runs.',
  );
  workGauges(
    registry,
    read,
    'session',
    'The running session: the share of its budget (paired) or of its ' +
      'planned test seconds (whole runs) spent, then of its instructions lane runs done, 0..1; 0 when none runs.',
  );
  new Gauge<(typeof KIND)[number]>({
    name: 'qpswatch_cache_bytes',
    help:
      'Bytes on disk of ccache, the git mirrors and the installs (builds), ' +
      'measured in the background at most every few minutes; no sample before ' +
      'the first measure.',
    labelNames: KIND,
    registers: [registry],
    collect() {
      this.reset();
      const sizes = read().cacheSizes;
      if (sizes !== null) for (const kind of cacheKinds) this.set({ kind }, sizes.bytes[kind]);
    },
  });
}

function workGauges(registry: Registry, read: ProgressRead, kind: WorkProgress['kind'], help: string): void {
  const running = (): WorkProgress | undefined => {
    const work = read().work;
    return work?.kind === kind ? work : undefined;
  };
  new Gauge({
    name: `qpswatch_${kind}_progress_ratio`,
    help,
    registers: [registry],
    collect() {
      this.set(running()?.ratio ?? 0);
    },
  });
  new Gauge<(typeof TAG)[number]>({
    name: `qpswatch_${kind}_eta_seconds`,
    help:
      `Seconds until the running ${kind} is expected to end, labelled with ` +
      `its release; no sample when none runs or its end is unknown.`,
    labelNames: TAG,
    registers: [registry],
    collect() {
      this.reset();
      const work = running();
      const left = secondsLeft(work?.endsAt ?? null, new Date());
      if (work !== undefined && left !== null) this.set({ tag: work.tag ?? '' }, left);
    },
  });
}
