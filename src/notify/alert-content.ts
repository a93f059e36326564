import type { ComparisonView, FrameShareRow, ProfilerTool, TestId } from '../model/index.js';

/** One regression event (or its recovery) of one release, as checks/ hands it to rendering. */
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
  /** a regression's differential profile of its worst test, or why there is none; absent when profiling is off */
  profile?: AlertProfile;
}

/**
 * The profile a check took of its worst regressed test on both servers: the frames that grew most and where the
 * flame graph is; or, when none could be taken, the one line that says why.
 */
export type AlertProfile =
  | {
      kind: 'taken';
      id: number;
      test: string;
      threads: number;
      baseline: { name: string; samples: number; tool: ProfilerTool };
      candidate: { name: string; samples: number; tool: ProfilerTool };
      grown: readonly FrameShareRow[];
      /** the flame graph's SVG file and the page with table and graph, under state_dir/profiles/ID */
      flameGraph: string;
      page: string;
      /** the session whose HTML report shows the flame graph (qpswatch show ID --format html) */
      sessionId: number;
    }
  | { kind: 'none'; reason: string };

/** One test's chained series against the base, as the drift email shows it. */
export interface ChainedTest extends TestId {
  points: ReadonlyArray<{ tag: string; relativeQps: number; low: number; high: number; steps: number }>;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}
