import type { DaemonHealth, MetricsSource, ReleaseFigureRow } from '../../../src/metrics/index.js';

type RowOverrides = Partial<Omit<ReleaseFigureRow, 'perOp'>> & { perOp?: Partial<ReleaseFigureRow['perOp']> };

/** Rows and health for collector tests: valid by default, each test changes only what it is about. */
export function figureRow(
  { perOp, ...overrides }: RowOverrides = {},
  labels: Partial<ReleaseFigureRow['labels']> = {},
): ReleaseFigureRow {
  return {
    labels: {
      host: 'fp-4c-16g-nvme',
      flavor: 'mariadb',
      series: 'mariadb-10.11',
      version: '10.11.9',
      version_key: '010.011.009',
      test: 'update-index',
      threads: '1',
      profile: 'small-server',
      ...labels,
    },
    qps: 1234.5,
    relativeQps: 0.97,
    relativeQpsLow: 0.94,
    relativeQpsHigh: 1.01,
    relativeToLastGood: 0.99,
    detectableDrop: 0.045,
    verdict: 'ok',
    regressionOpen: false,
    threshold: 0.95,
    perOp: { cpuPerOp: 0.00025, csPerOp: 2.5, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 3072, ...perOp },
    latencyP95Seconds: 0.00691,
    instructionsPerQuery: 101_230,
    instructionsRelativeToBase: 1.031,
    instructionsRelativeToLastGood: 1.004,
    ...overrides,
  };
}

export function health(overrides: Partial<DaemonHealth> = {}): DaemonHealth {
  return {
    phase: 'benchmarking',
    queue: { discovered: 2, benchmarking: 1, done: 7, failed: 1 },
    lastPollSeconds: 1_750_000_000,
    pollIntervalSeconds: 3600,
    quietHostWaitSeconds: 0,
    releasesDiscovered: 11,
    builds: { built: 8, failed: 1 },
    lastBuildDurationSeconds: 1520.5,
    lastSessionDurationSeconds: 3300,
    activeRegressions: [{ series: 'mariadb-10.11', count: 1 }],
    retriesPending: { build: 0, session: 1 },
    ...overrides,
  };
}

/** A source whose answers a test sets; `reads` counts how often the store would have been asked. */
export class FakeSource implements MetricsSource {
  build = { version: '1.2.3' };
  rows: ReleaseFigureRow[] = [figureRow()];
  state: DaemonHealth = health();
  failure: Error | undefined;
  reads = { releaseFigures: 0, health: 0 };

  async releaseFigures(): Promise<ReleaseFigureRow[]> {
    this.reads.releaseFigures += 1;
    if (this.failure) throw this.failure;
    return this.rows;
  }

  async health(): Promise<DaemonHealth> {
    this.reads.health += 1;
    if (this.failure) throw this.failure;
    return this.state;
  }
}

/** A source with a change mark, as the store's: a test moves `mark` to say the store was written. */
export class MarkedSource extends FakeSource {
  mark = 1;

  async changeMark(): Promise<string> {
    return String(this.mark);
  }
}

/** The qpswatch_* part of an exposition, without prom-client's process metrics. */
export function qpswatchFamilies(text: string): string {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('# HELP qpswatch_'))
    .map((block) => block.trimEnd())
    .join('\n\n');
}
