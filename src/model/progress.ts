import type { SessionDesignName } from './comparison.js';

/**
 * How far the daemon's current work is: a build (its compile step's [n/m] or percent) or a session (its round or
 * sweep, the test, the share of its plan or budget), with the moment it is expected to end. The end is a time, not a
 * number of seconds, so a reader long after the last report still gets the right "left" (ETA = endsAt - now).
 */
export interface BuildWorkProgress {
  kind: 'build';
  tag: string;
  /** The cmake step running: configure, build (the compile), install. */
  step: string;
  /** Targets done and in all, from ninja's [n/m]; null for make (percent only) and before the first line. */
  done: number | null;
  total: number | null;
  /** 0..1: the compile's share done (0 while configuring, 1 from the install on); never goes back. */
  ratio: number;
  startedAt: string;
  endsAt: string | null;
  /** What endsAt comes from: the series' last build duration, or the rate of this build so far. */
  etaFrom: 'last_build' | 'rate' | null;
}

export interface SessionWorkProgress {
  kind: 'session';
  tag: string | null;
  design: SessionDesignName;
  /** loading (sysbench prepare), warm-up, measuring; instructions: the instructions lane after the pairs. */
  stage: string;
  /** The sweep (paired) or round (whole runs) under way; 0 before the first. */
  round: number;
  /** Whole runs: the number of rounds; paired: null (sweeps go on until the tests are decided or the budget ends). */
  rounds: number | null;
  /** The test being measured ("oltp_read_only.t1"; in the lane, the test and side), or null. */
  test: string | null;
  /**
   * 0..1: paired, the share of the budget spent; whole runs, the share of the planned test seconds done; in the lane,
   * the share of its counted runs done.
   */
  ratio: number;
  startedAt: string;
  endsAt: string | null;
  /**
   * budget: the paired session's budget ends it at the latest; plan: the whole runs' test seconds left; lane: the
   * instructions lane's runs left, at the pace of its runs so far.
   */
  etaFrom: 'budget' | 'plan' | 'lane' | null;
  /** Paired: the sweeps the budget pays for (the session's last look); absent where not known. */
  sweeps?: number | null;
  /** Paired: the tests decided at the newest look, of how many; null before the first look. */
  decided?: { tests: number; of: number } | null;
  /** The instructions lane (stage instructions): the counted run under way, of how many. */
  lane?: { run: number; of: number } | null;
}

export type WorkProgress = BuildWorkProgress | SessionWorkProgress;

export const cacheKinds = ['ccache', 'mirrors', 'builds'] as const;
export type CacheKind = (typeof cacheKinds)[number];

/** Bytes on disk of qpswatch's big folders, measured at measuredAt (walking them is slow, so the figure is kept). */
export interface CacheSizes {
  measuredAt: string;
  bytes: Record<CacheKind, number>;
}

/** Seconds from now until endsAt, never below 0; null when nothing says when it ends. */
export function secondsLeft(endsAt: string | null, now: Date): number | null {
  if (endsAt === null) return null;
  const at = Date.parse(endsAt);
  return Number.isNaN(at) ? null : Math.max(0, (at - now.getTime()) / 1000);
}
