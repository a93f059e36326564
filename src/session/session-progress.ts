import { testLabel, type SessionDesignName, type SessionWorkProgress, type WorkProgress } from '../model/index.js';
import type { Suite } from '../suite/index.js';

/** What a running session tells of itself: round.ts and paired-session.ts call it as they go. */
export interface SessionProgress {
  /** sysbench prepare of a target (before any measuring). */
  loading(): void;
  /** The warm-up run of one side, in round (whole runs) or before the first sweep (paired: round 0). */
  warmingUp(round: number): void;
  /** A measured run starts: round (or sweep), the test and its thread count. */
  testStarts(round: number, test: string, threads: number, seconds: number): void;
  /** Paired: a look decided `tests` of the `of` tests measured. */
  looked(tests: number, of: number): void;
  /** The instructions lane, after the pairs: counted run `run` of `of` starts (`what`: test and side). */
  counting(run: number, of: number, what: string, secondsLeft: number): void;
}

export interface SessionProgressPlan {
  design: SessionDesignName;
  tag: string | null;
  suite: Pick<Suite, 'tests' | 'warmup' | 'loads'>;
  /** Whole runs: the rounds of both targets. */
  rounds: number;
  /** Paired: the minutes of pairs; the session stops before it would overrun them. */
  budgetMinutes: number;
  /** Paired: the sweeps the budget pays for, where the last look is planned. */
  sweeps?: number;
}

/**
 * Turns a session's steps into its progress, with its expected end. Paired: the share of the budget spent since the
 * first pair, ending at the budget's end at the latest (a session whose tests are decided ends before). Whole runs:
 * the planned seconds (warm-up and each test, per round and target) done of all, the rest ahead at the pace so far
 * (sysbench's own start, the datadir copies and server starts make a round longer than its test seconds).
 */
export function sessionProgress(
  plan: SessionProgressPlan,
  report: (work: WorkProgress) => void,
  now: () => number = Date.now,
): SessionProgress {
  const startedAt = new Date(now()).toISOString();
  const perRound =
    plan.suite.warmup.seconds * plan.suite.loads.length +
    plan.suite.tests.reduce((sum, t) => sum + t.seconds * t.threads.length, 0);
  const planned = plan.rounds * 2 * perRound;
  const budgetMs = plan.budgetMinutes * 60_000;
  let measuringSince: number | null = null;
  let plannedDone = 0;
  let decided: SessionWorkProgress['decided'] = null;
  let lane: { run: number; of: number; endsAt: number } | null = null;
  let current: { stage: string; round: number; test: string | null; seconds: number } = {
    stage: 'loading',
    round: 0,
    test: null,
    seconds: 0,
  };

  const emit = (): void => {
    const at = now();
    const base = {
      kind: 'session',
      tag: plan.tag,
      design: plan.design,
      stage: current.stage,
      round: current.round,
      test: current.test,
      startedAt,
    } as const;
    const paired = plan.design === 'paired' ? { sweeps: plan.sweeps ?? null, decided } : {};
    const counting = lane === null ? {} : { lane: { run: lane.run, of: lane.of } };
    report({ ...base, rounds: plan.design === 'runs' ? plan.rounds : null, ...paired, ...counting, ...figures(at) });
  };
  const figures = (at: number): Pick<SessionWorkProgress, 'ratio' | 'endsAt' | 'etaFrom'> => {
    if (lane !== null)
      return { ratio: clamp((lane.run - 1) / lane.of), endsAt: new Date(lane.endsAt).toISOString(), etaFrom: 'lane' };
    if (measuringSince === null) return { ratio: 0, endsAt: null, etaFrom: null };
    if (plan.design === 'paired') {
      return {
        ratio: clamp((at - measuringSince) / budgetMs),
        endsAt: new Date(measuringSince + budgetMs).toISOString(),
        etaFrom: 'budget',
      };
    }
    const left = Math.max(0, planned - plannedDone);
    const pace = plannedDone > 0 ? Math.max(1, (at - measuringSince) / 1000 / plannedDone) : 1;
    return {
      ratio: planned === 0 ? 0 : clamp(plannedDone / planned),
      endsAt: new Date(at + left * pace * 1000).toISOString(),
      etaFrom: 'plan',
    };
  };
  // The step before this one is done: its planned seconds count (whole runs).
  const next = (stage: string, round: number, test: string | null, seconds: number): void => {
    if (current.stage !== 'loading') plannedDone += current.seconds;
    measuringSince ??= stage === 'loading' || (plan.design === 'paired' && stage === 'warm-up') ? null : now();
    current = { stage, round, test, seconds };
    emit();
  };
  return {
    loading: () => next('loading', 0, null, 0),
    warmingUp: (round) => next('warm-up', round, null, plan.suite.warmup.seconds),
    testStarts: (round, test, threads, seconds) => next('measuring', round, testLabel({ test, threads }), seconds),
    looked: (tests, of) => {
      decided = { tests, of };
      emit();
    },
    counting: (run, of, what, secondsLeft) => {
      lane = { run, of, endsAt: now() + secondsLeft * 1000 };
      current = { stage: 'instructions', round: current.round, test: what, seconds: 0 };
      emit();
    },
  };
}

function clamp(ratio: number): number {
  return Math.min(1, Math.max(0, ratio));
}
