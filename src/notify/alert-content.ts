import type { ComparisonView, TestId } from '../model/index.js';

/** One regression event (or its recovery) of one release, as the pipeline hands it to rendering. */
export interface AlertContent {
  kind: 'regression' | 'recovery';
  /** e.g. mariadb */
  flavor: string;
  /** series name, e.g. mariadb-10.11 */
  upstream: string;
  /** the judged release */
  tag: string;
  version: string;
  /** the last good release it was compared with, or the series' base (against) */
  comparedWith: { tag: string; version: string };
  /**
   * base: the session was a paired session directly against the series' base (a drift confirmation, or a check
   * against the base); its regressions are a drift of the series. Absent: against the last good release.
   */
  against?: 'base';
  /** For a drift: each drifted test's chained relative QPS against the base, release by release, oldest first. */
  chain?: ReadonlyArray<ChainedTest>;
  /** the tests of this event: regressed ones (regression) or the ones that recovered (recovery) */
  tests: ReadonlyArray<TestId>;
  /** the whole session: relative QPS table, per-op tables, verdicts with hints */
  comparison: ComparisonView;
  fingerprintId: string;
  /** a link to Grafana when configured */
  dashboardUrl?: string;
}

/** One test's chained series against the base, as the drift email shows it. */
export interface ChainedTest extends TestId {
  points: ReadonlyArray<{ tag: string; relativeQps: number; low: number; high: number; steps: number }>;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}
