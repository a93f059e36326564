import type { ComparisonView } from '../model/index.js';

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
  /** the last good release it was compared with */
  comparedWith: { tag: string; version: string };
  /** the tests of this event: regressed ones (regression) or the ones that recovered (recovery) */
  tests: ReadonlyArray<{ test: string; threads: number }>;
  /** the whole session: relative QPS table, per-op tables, verdicts with hints */
  comparison: ComparisonView;
  fingerprintId: string;
  /** a link to Grafana when configured */
  dashboardUrl?: string;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}
