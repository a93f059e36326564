import type { EventRecord } from '../store/index.js';
import { testKey, type Verdict } from '../model/index.js';

export interface EventPlan {
  /** Regressed tests with no open event in the upstream: each opens one, and they share one email. */
  opened: Verdict[];
  /** Open events whose test this check found ok or faster: fixed by this release, with one recovery email. */
  fixed: EventRecord[];
  /** Regressed tests that already have an open event: the same event goes on, nobody is emailed again. */
  continuing: Verdict[];
}

/**
 * What one check does to the regression events of its upstream. An unstable test neither opens nor fixes anything:
 * the check says nothing reliable about it. Nor does a slower one: it raises no alert of its own, and a regressed
 * test that is still significantly slower has not recovered.
 */
export function planEvents(verdicts: readonly Verdict[], open: readonly EventRecord[]): EventPlan {
  const openByTest = new Map(open.map((e) => [testKey(e), e]));
  const regressed = verdicts.filter((v) => v.kind === 'regression');
  const recovered = new Set(verdicts.filter((v) => v.kind === 'ok' || v.kind === 'improvement').map(testKey));
  return {
    opened: regressed.filter((v) => !openByTest.has(testKey(v))),
    continuing: regressed.filter((v) => openByTest.has(testKey(v))),
    fixed: open.filter((e) => recovered.has(testKey(e))),
  };
}
