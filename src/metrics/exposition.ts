import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerBuildCollectors } from './build-collectors.js';
import { registerBuildInfoCollector } from './build-info-collector.js';
import { registerDiscoveryCollector } from './discovery-collector.js';
import { registerPhaseCollector } from './phase-collector.js';
import { registerProgressCollectors } from './progress-collectors.js';
import { NO_PROGRESS } from './progress-source.js';
import { registerPollCollectors } from './poll-collectors.js';
import { registerQueueCollector } from './queue-collector.js';
import { registerQuietHostCollector } from './quiet-host-collector.js';
import { registerRegressionsCollector } from './regressions-collector.js';
import { releaseFamiliesText } from './release-families.js';
import { registerRetriesCollector } from './retries-collector.js';
import { registerSessionCollector } from './session-collector.js';
import { sharedRead } from './shared-read.js';
import type { DaemonHealth, MetricsSource } from './source.js';

/** The event-loop delay histogram's sampling period (ms): one wake-up a second. */
const EVENT_LOOP_PRECISION_MS = 1000;

/** What /metrics serves: the text exposition format of every family, in contract order. */
export interface MetricsExposition {
  readonly contentType: string;
  metrics(): Promise<string>;
}

/**
 * Every qpswatch family plus prom-client's process metrics, on registries of their own (never the global one: two
 * servers in one process, as in tests, must not share series).
 *
 * Three parts, concatenated: a registry with the process metrics and build info; the per-release families (written by
 * release-families.ts); a registry with the daemon's health and progress (only for a source with health: a daemon).
 * The per-release families are nearly all of a scrape (7,000 series over 100,000 samples) and depend on the store
 * alone, so their text is kept while the source's change mark stays the same; the rest is read on every scrape. A
 * source without a change mark is read on every scrape.
 */
export function createMetricsExposition(source: MetricsSource): MetricsExposition {
  const head = new Registry();
  // prom-client samples event-loop delay every 10 ms by default: 100 wake-ups a second, most of an idle daemon's CPU.
  collectDefaultMetrics({ register: head, eventLoopMonitoringPrecision: EVENT_LOOP_PRECISION_MS });
  registerBuildInfoCollector(head, source.build);

  const releasesText = keptWhileUnchanged(
    async () => releaseFamiliesText(await source.releaseFigures()),
    source.changeMark?.bind(source),
  );

  const tail = source.health === undefined ? undefined : daemonRegistry(source, source.health.bind(source));

  return {
    contentType: head.contentType,
    async metrics() {
      // Each part's text ends in one newline; families are separated by an empty line, across parts too.
      return (await Promise.all([head.metrics(), releasesText(), ...(tail ? [tail.metrics()] : [])])).join('\n');
    },
  };
}

/** The daemon's own families: its health (read once per scrape for all of them) and its work in progress. */
function daemonRegistry(source: MetricsSource, read: () => Promise<DaemonHealth>): Registry {
  const tail = new Registry();
  const health = sharedRead(read);
  registerPhaseCollector(tail, health);
  registerQueueCollector(tail, health);
  registerRetriesCollector(tail, health);
  registerDiscoveryCollector(tail, health);
  registerBuildCollectors(tail, health);
  registerSessionCollector(tail, health);
  registerPollCollectors(tail, health);
  registerRegressionsCollector(tail, health);
  registerQuietHostCollector(tail, health);
  registerProgressCollectors(tail, () => source.progress?.() ?? NO_PROGRESS);
  return tail;
}

/**
 * `render`'s text, rendered again only when `mark` changes. One call at a time: a call waits for the one before it,
 * so two renders never overlap (they share the session cache, whose sweep must see one render's reads). The mark is
 * read before rendering, so a write during a render leaves the text with the older mark and the next call renders
 * again. A failed render is not kept.
 */
function keptWhileUnchanged(
  render: () => Promise<string>,
  mark: (() => Promise<string>) | undefined,
): () => Promise<string> {
  if (mark === undefined) return render;
  let kept: { mark: string; text: Promise<string> } | undefined;
  let last: Promise<unknown> = Promise.resolve();
  const next = async (): Promise<string> => {
    const now = await mark();
    if (kept?.mark !== now) {
      const entry = { mark: now, text: render() };
      kept = entry;
      entry.text.catch(() => {
        if (kept === entry) kept = undefined;
      });
    }
    return kept.text;
  };
  return () => {
    const text = last.then(next);
    last = text.catch(() => undefined);
    return text;
  };
}
