import type { Counter } from 'prom-client';

/**
 * Counters here are totals kept in the store, not events seen by this process: each scrape sets the stored total.
 * prom-client counters only go up, hence reset then inc; the total never falls, so Prometheus sees no reset
 * unless the store itself was replaced. A labelled counter is reset by the caller once, before its label sets.
 */
export function setCounter<T extends string>(
  counter: Counter<T>,
  value: number,
  labels?: Partial<Record<T, string>>,
): void {
  if (labels === undefined) {
    counter.reset();
    counter.inc(value);
  } else {
    counter.inc(labels, value);
  }
}
