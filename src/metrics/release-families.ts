import { PER_OP_FIGURES } from '../model/index.js';
import { RELEASE_LABELS, type ReleaseFigureRow } from './source.js';

interface ReleaseFamily {
  name: string;
  help: string;
  value: (row: ReleaseFigureRow) => number | null;
}

/**
 * The per-release families: gauges with the same labels, all filled from one read. The per-op families are the
 * figure table's, one per entry of PER_OP_FIGURES with a `metric`, in its order, named and described by it.
 */
export const RELEASE_FAMILIES: readonly ReleaseFamily[] = [
  {
    name: 'qpswatch_qps',
    help: 'Median QPS (sysbench queries per second) of the version for the test.',
    value: (r) => r.qps,
  },
  {
    name: 'qpswatch_relative_qps_ratio',
    help:
      "QPS relative to the series' base release: chained through the paired " +
      'checks where they lead to the base, else the ratio of medians (0/0 = ' +
      '1).',
    value: (r) => r.relativeQps,
  },
  {
    name: 'qpswatch_relative_qps_low_ratio',
    help: 'Lower end of the interval of the chained relative QPS against the base; absent for a ratio of medians.',
    value: (r) => r.relativeQpsLow,
  },
  {
    name: 'qpswatch_relative_qps_high_ratio',
    help: 'Upper end of the interval of the chained relative QPS against the base; absent for a ratio of medians.',
    value: (r) => r.relativeQpsHigh,
  },
  {
    name: 'qpswatch_relative_to_last_good_ratio',
    help: "Relative QPS of the version's newest valid check, against the last good release of that time.",
    value: (r) => r.relativeToLastGood,
  },
  {
    name: 'qpswatch_detectable_drop_ratio',
    help:
      "Smallest drop (0.05 = 5%) the version's newest valid check could " +
      'detect for the test, 4 times in 5 at its alpha.',
    value: (r) => r.detectableDrop,
  },
  {
    name: 'qpswatch_regression_open',
    help: 'Whether a regression event that started with this version is open for the test (1) or not (0).',
    value: (r) => (r.regressionOpen ? 1 : 0),
  },
  ...PER_OP_FIGURES.flatMap((f): ReleaseFamily[] =>
    'metric' in f ? [{ name: f.metric.name, help: f.metric.help, value: (r) => r.perOp[f.field] ?? null }] : [],
  ),
  {
    name: 'qpswatch_latency_p95_seconds',
    help: "Median of sysbench's 95th percentile latency, in seconds.",
    value: (r) => r.latencyP95Seconds,
  },
  // The instructions lane's (1-thread tests it counted): no sample where it did not count.
  {
    name: 'qpswatch_instructions_per_query',
    help:
      'Instructions per query executed in the server connection thread (median of the repeats, callgrind or perf ' +
      'stat), for the 1-thread tests the instructions lane counted.',
    value: (r) => r.instructionsPerQuery,
  },
  {
    name: 'qpswatch_instructions_relative_to_base_ratio',
    help:
      "Instructions per query relative to the series' base release counted under the same conditions, directly " +
      '(not chained): over 1 is more work per query; 1 for the base.',
    value: (r) => r.instructionsRelativeToBase,
  },
  {
    name: 'qpswatch_instructions_relative_to_last_good_ratio',
    help:
      "Instructions per query C/B of the version's newest valid check, against the last good release of that " +
      'time: over 1 is more work per query.',
    value: (r) => r.instructionsRelativeToLastGood,
  },
];

const VERDICT_FAMILY = {
  name: 'qpswatch_verdict_info',
  help:
    '1, labelled with the verdict (kind: ok, regression, improvement, ' +
    "slower or unstable) of the version's newest valid check for the test. " +
    'A version with a slower or unstable test and no regression is inconclusive: not last good.',
};

const THRESHOLD_FAMILY = {
  name: 'qpswatch_regression_threshold_ratio',
  help: "Relative QPS under which a test's drop is a regression (threshold, or the test's entry in test_thresholds).",
};

/**
 * The per-release families, the verdict family (the per-release labels plus the kind, one sample per checked row)
 * and the threshold family in the text exposition format, as a prom-client registry would
 * write them (families apart by an empty line, one newline at the end). Written here rather than through prom-client
 * gauges because they are nearly all of a scrape: with 100,000 samples, 7,000 series whose labels are the same in
 * every family, so each row's label text is made once, not once per family and sample (a gauge hashes and formats
 * every sample's labels), which took the first render from about 90 ms to 30.
 *
 * Every sample is taken again from the rows, so pruned versions disappear. Infinity (a base that did 0 QPS) or NaN
 * would read as a measurement on a dashboard: such a sample is left out, as is a null.
 */
export function releaseFamiliesText(rows: readonly ReleaseFigureRow[]): string {
  const labels = rows.map((row) =>
    labelText([
      ...RELEASE_LABELS.map((name): [string, string] => [name, row.labels[name]]),
      ...(row.labels.memory !== undefined ? [['memory', row.labels.memory] as [string, string]] : []),
    ]),
  );
  const families = RELEASE_FAMILIES.map((family) => {
    const samples: string[] = [];
    for (const [i, row] of rows.entries()) {
      const value = family.value(row);
      if (value !== null && Number.isFinite(value)) samples.push(`${family.name}{${labels[i]!}} ${value}`);
    }
    return familyText(family.name, family.help, samples);
  });
  families.push(
    familyText(
      VERDICT_FAMILY.name,
      VERDICT_FAMILY.help,
      rows.flatMap((row, i) =>
        row.verdict === null ? [] : [`${VERDICT_FAMILY.name}{${labels[i]!},${labelText([['kind', row.verdict]])}} 1`],
      ),
    ),
  );
  families.push(familyText(THRESHOLD_FAMILY.name, THRESHOLD_FAMILY.help, thresholdSamples(rows)));
  return `${families.join('\n\n')}\n`;
}

/**
 * The configured regression threshold per series and test, so alert rules and dashboards compare relative QPS with
 * what qpswatch's own verdicts use instead of a copy of it. One sample per series and test that has release figures,
 * in the order first seen: the threshold depends on the test alone (threshold, test_thresholds), the series is there
 * for the rules to join on.
 */
function thresholdSamples(rows: readonly ReleaseFigureRow[]): string[] {
  const bySeriesTest = new Map<string, string>();
  for (const { labels, threshold } of rows) {
    if (!Number.isFinite(threshold)) continue;
    bySeriesTest.set(
      `${labels.series}\u0000${labels.test}`,
      `${THRESHOLD_FAMILY.name}{${labelText([
        ['series', labels.series],
        ['test', labels.test],
      ])}} ${threshold}`,
    );
  }
  return [...bySeriesTest.values()];
}

function familyText(name: string, help: string, samples: readonly string[]): string {
  return [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} gauge`, ...samples].join('\n');
}

function labelText(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',');
}

/** The text format's escapes: a label value's backslash, double quote and line feed; HELP's backslash and line feed. */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}
