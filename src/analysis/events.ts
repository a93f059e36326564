import type { EventRecord } from '../store/index.js';
import type { TestVerdict } from './verdict.js';

export interface EventPlan {
  /** Regressed tests with no open event in the upstream: each opens one, and they share one email. */
  opened: TestVerdict[];
  /** Open events whose test this check found ok or faster: fixed by this release, with one recovery email. */
  fixed: EventRecord[];
  /** Regressed tests that already have an open event: the same event goes on, nobody is emailed again. */
  continuing: TestVerdict[];
}

const key = (t: { test: string; threads: number }): string => `${t.test}\u0000${t.threads}`;

/**
 * What one check does to the regression events of its upstream. An unstable test neither opens nor fixes anything:
 * the check says nothing reliable about it.
 */
export function planEvents(verdicts: readonly TestVerdict[], open: readonly EventRecord[]): EventPlan {
  const openByTest = new Map(open.map((e) => [key(e), e]));
  const regressed = verdicts.filter((v) => v.kind === 'regression');
  const recovered = new Set(verdicts.filter((v) => v.kind === 'ok' || v.kind === 'improvement').map(key));
  return {
    opened: regressed.filter((v) => !openByTest.has(key(v))),
    continuing: regressed.filter((v) => openByTest.has(key(v))),
    fixed: open.filter((e) => recovered.has(key(e))),
  };
}
