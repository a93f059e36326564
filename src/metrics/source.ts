/**
 * What the collectors read on each scrape. The metrics room sits below the store, so it never reads the store
 * itself: views/ implements this port over the store, and the daemon adds what only it knows (its phase).
 */
import type { CyclePhase, PerOpField, QueueState, VerdictKind } from '../model/index.js';
import type { ProgressFigures } from './progress-source.js';

/** Label names of every per-release family, in exposition order; always all of them. */
export const RELEASE_LABELS = [
  'host',
  'flavor',
  'series',
  'version',
  'version_key',
  'test',
  'threads',
  'profile',
] as const;
export type ReleaseLabel = (typeof RELEASE_LABELS)[number];
/**
 * The memory setting (cached, io-bound) of the sessions behind a row, when they ran under one: written after the
 * others, and left out for the rows measured without one (to Prometheus, an empty label is no label), so the series
 * and rules that predate it keep their label sets.
 */
export type ReleaseLabels = Record<ReleaseLabel, string> & { memory?: string };

/** One version's figures for one test on one host, in base units. null: no value, the sample is left out. */
export interface ReleaseFigureRow {
  labels: ReleaseLabels;
  qps: number;
  /**
   * Relative QPS against the series' base release: chained through the paired checks where the test has a chain to
   * the base, else qps / qps of the base (0/0 = 1); null when the base has no result for the test on this host.
   */
  relativeQps: number | null;
  /** The chained estimate's interval (the verdicts' confidence); null for a median ratio, which has none. */
  relativeQpsLow: number | null;
  relativeQpsHigh: number | null;
  /** Relative QPS of the version's newest valid check; null when it was never checked. */
  relativeToLastGood: number | null;
  /**
   * The smallest drop (a ratio: 0.05 = 5%) the version's newest valid check could have detected for the test at 80%
   * power; null when it was never checked, or checked before verdicts carried it.
   */
  detectableDrop: number | null;
  /** The verdict of the version's newest valid check on the test; null when it was never checked. */
  verdict: VerdictKind | null;
  /** A regression event that started with this version is open for the test (not fixed, accepted or invalid). */
  regressionOpen: boolean;
  /** The configured regression threshold of the test (its `test_thresholds` entry, else `threshold`). */
  threshold: number;
  /**
   * The per-op figures of the figure table (PER_OP_FIGURES), each in its metric's base unit (CPU seconds, bytes, a
   * count per operation); null when it cannot be converted (CPU with a fingerprint that does not say how many CPUs).
   */
  perOp: Partial<Record<PerOpField, number | null>>;
  latencyP95Seconds: number | null;
  /**
   * The instructions lane (a 1-thread test it counted; docs/verdicts.md, "Instructions per query"): the median
   * instructions per query executed in the connection thread over every repeat of the version's binary under the
   * same conditions; null where the lane did not count the test on the host.
   */
  instructionsPerQuery: number | null;
  /**
   * Those instructions per query / the base release's, counted under the same conditions (condition key), directly:
   * no chain of checks (counts do not depend on the host's speed); 1 for the base; null where the base has no count
   * of the same conditions.
   */
  instructionsRelativeToBase: number | null;
  /** C/B of the lane in the version's newest valid check, against the last good release of that time; null: none. */
  instructionsRelativeToLastGood: number | null;
}

export const BUILD_RESULTS = ['built', 'failed'] as const;
export type BuildResult = (typeof BUILD_RESULTS)[number];

/** What only the running daemon knows, kept in its memory. */
export interface DaemonStatus {
  phase: CyclePhase;
  /** Releases per queue state; a state left out counts 0. */
  queue: Partial<Record<QueueState, number>>;
  /** Unix seconds of the last finished discovery; null before the first (exported as 0). */
  lastPollSeconds: number | null;
  /** The schedule's interval between polls. */
  pollIntervalSeconds: number;
  /** How long the current session has waited for a quiet host; 0 when not waiting. */
  quietHostWaitSeconds: number;
}

/** The steps of a release the daemon tries again when they fail. */
export const RETRY_STEPS = ['build', 'session'] as const;
export type RetryStep = (typeof RETRY_STEPS)[number];

/** What the store says about the daemon's work. */
export interface StoreHealth {
  /** Queue rows waiting for another attempt of a failed step (not yet given up), by step. */
  retriesPending: Record<RetryStep, number>;
  /** Releases ever discovered, all upstreams. */
  releasesDiscovered: number;
  /** Builds that ended, by result. */
  builds: Record<BuildResult, number>;
  /** The newest finished build's duration; null before the first (exported as 0). */
  lastBuildDurationSeconds: number | null;
  /** The newest done session's duration; null before the first (exported as 0). */
  lastSessionDurationSeconds: number | null;
  /** Open regression events per series; a series with releases and none open counts 0. */
  activeRegressions: ReadonlyArray<{ series: string; count: number }>;
}

export type DaemonHealth = DaemonStatus & StoreHealth;

/** What is running: exported as qpswatch_build_info. */
export interface BuildInfo {
  /** qpswatch's version (package.json). */
  version: string;
}

export interface MetricsSource {
  readonly build: BuildInfo;
  releaseFigures(): Promise<ReleaseFigureRow[]>;
  /**
   * The daemon's health (phase, queue, builds, polls, regressions): left out where no daemon runs (`qpswatch metrics`
   * serves the fleet's figures from a shared store, and nothing of any daemon's own status).
   */
  health?(): Promise<DaemonHealth>;
  /**
   * A mark that changes whenever releaseFigures() may have (the store's results mark): the per-release text is kept
   * while it stays the same. Without it every scrape reads the figures.
   */
  changeMark?(): Promise<string>;
  /** The daemon's work in progress and cache sizes, from its memory; left out where no daemon runs. */
  progress?(): ProgressFigures;
}
