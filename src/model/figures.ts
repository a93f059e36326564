/**
 * The figures of a measured run, as in the reference "relative QPS" studies: QPS, and host resources per operation
 * (see DESIGN "Measuring"). This table is the one list of the per-op figures: sampling computes them (`of`), the
 * store keeps them (one column each, added by the store when missing), analysis takes their medians and hints,
 * report prints them and metrics exports them, each by walking it. A new figure is one entry here, plus a test.
 */
export const PER_OP_FIGURES = [
  {
    field: 'cpuPerOp',
    kind: 'rate',
    hint: 'resource',
    of: ({ usage, qps }) => usage.cpuBusyPct / qps,
    header: 'cpu/o',
    csv: 'cpu_o',
    column: 'cpu_per_op',
    about: 'CPU busy (us+sy, percent of all CPUs) / QPS',
    metric: {
      name: 'qpswatch_cpu_seconds_per_op',
      help: 'Host CPU seconds per operation (median).',
      unit: 'cpu-percent',
    },
  },
  {
    field: 'csPerOp',
    kind: 'rate',
    hint: 'resource',
    of: ({ usage, qps }) => usage.csPerSec / qps,
    header: 'cs/o',
    csv: 'cs_o',
    column: 'cs_per_op',
    about: 'context switches per second / QPS',
    metric: {
      name: 'qpswatch_context_switches_per_op',
      help: 'Host context switches per operation (median).',
      unit: 'count',
    },
  },
  {
    field: 'readsPerOp',
    kind: 'rate',
    hint: 'resource',
    of: ({ usage, qps }) => usage.readsPerSec / qps,
    header: 'r/o',
    csv: 'r_o',
    column: 'reads_per_op',
    about: 'reads per second of the data device / QPS',
    metric: {
      name: 'qpswatch_read_ops_per_op',
      help: 'Reads from the data device per operation (median).',
      unit: 'count',
    },
  },
  {
    field: 'readKBPerOp',
    kind: 'rate',
    hint: 'resource',
    of: ({ usage, qps }) => usage.readKBPerSec / qps,
    header: 'rKB/o',
    csv: 'rkb_o',
    column: 'read_kb_per_op',
    about: 'KB read per second of the data device / QPS',
    metric: {
      name: 'qpswatch_read_bytes_per_op',
      help: 'Bytes read from the data device per operation (median).',
      unit: 'kilobytes',
    },
  },
  {
    field: 'writeKBPerOp',
    kind: 'rate',
    hint: 'resource',
    of: ({ usage, qps }) => usage.writeKBPerSec / qps,
    header: 'wKB/o',
    csv: 'wkb_o',
    column: 'write_kb_per_op',
    about: 'KB written per second to the data device / QPS',
    metric: {
      name: 'qpswatch_written_bytes_per_op',
      help: 'Bytes written to the data device per operation (median).',
      unit: 'kilobytes',
    },
  },
  {
    field: 'cpuMicrosPerOp',
    kind: 'time',
    // cpu/o says the same in other units: one hint of CPU is enough.
    hint: 'none',
    of: ({ usage, qps }) => cpuMicrosPerOp(usage.cpuBusyPct / qps, usage.cpus),
    header: 'cpuµs/o',
    csv: 'cpu_us_o',
    column: 'cpu_micros_per_op',
    about: 'cpu/o x CPUs x 1e4: CPU microseconds per operation (of the whole host, client included)',
  },
  {
    field: 'offCpuMicrosPerOp',
    kind: 'time',
    hint: 'waiting',
    // A closed-loop client with T threads spends T / QPS seconds of wall time per operation; what the measured server's
    // own threads did not spend of it on a CPU went to waiting (IO, locks, the client, a busy CPU). The server's CPU
    // time comes from its process, so other work on the host does not hide the waits; unknown ▶ NaN, shown "-".
    of: ({ usage, qps, threads }) =>
      usage.serverCpuPerSec === undefined
        ? Number.NaN
        : Math.max(0, (threads * 1e6) / qps - (usage.serverCpuPerSec * 1e6) / qps),
    header: 'offµs/o',
    csv: 'off_cpu_us_o',
    column: 'off_cpu_micros_per_op',
    about:
      "threads x 1e6 / QPS - the server process's CPU µs per operation, at least 0: microseconds per operation the " +
      'server spent off CPU (IO, locks, the client, sleeps)',
    metric: {
      name: 'qpswatch_off_cpu_seconds_per_op',
      help: 'Off-CPU seconds per operation (median): client threads / QPS minus the server process CPU seconds per op.',
      unit: 'microseconds',
    },
  },
] as const satisfies readonly PerOpFigure[];

/**
 * How a figure's unit becomes the metric's base unit: cpu-percent (percent of all CPUs per operation) x CPUs / 100
 * gives CPU seconds, kilobytes x 1024 bytes, a count stays as it is.
 */
export const perOpUnits = ['cpu-percent', 'count', 'kilobytes', 'microseconds'] as const;
export type PerOpUnit = (typeof perOpUnits)[number];

/** The one conversion of a per-op figure to its metric's base unit; null when it cannot be made (CPUs unknown). */
export const TO_BASE_UNIT: Record<PerOpUnit, (value: number, cpus: number | undefined) => number | null> = {
  'cpu-percent': (value, cpus) => (cpus === undefined ? null : (value / 100) * cpus),
  count: (value) => value,
  kilobytes: (value) => value * 1024,
  microseconds: (value) => value / 1e6,
};

/** The host's usage rates over one measured run (sampling's HostUsage has these and more). */
export interface UsageRates {
  cpus: number;
  /** us+sy, percent of all CPUs */
  cpuBusyPct: number;
  csPerSec: number;
  readsPerSec: number;
  readKBPerSec: number;
  writeKBPerSec: number;
  /** CPU seconds per second of the measured server's own process over the run, when it was read. */
  serverCpuPerSec?: number;
}

/** What a figure of one run is computed from: the host's usage, the QPS and the client threads of the run. */
export interface FigureRun {
  usage: UsageRates;
  /** operations per second, greater than 0 */
  qps: number;
  threads: number;
}

/**
 * One entry of the figure table: the field in code, how one run's value is computed, the header of the tables, the
 * CSV and store column names, and the metric it is exported as (none: another figure's metric says the same).
 * - kind rate: a host rate / QPS, a column of the reference studies, in every result (imported ones too); printed
 *   before o/s.
 * - kind time: time per operation, derived; results stored or imported before it existed lack it (shown as "-").
 * - hint: what a regression's hint makes of its growth: a resource that grew, time that went to waiting, or nothing
 *   (a figure another one already hints).
 */
export interface PerOpFigure {
  field: string;
  kind: 'rate' | 'time';
  hint: 'resource' | 'waiting' | 'none';
  of: (run: FigureRun) => number;
  header: string;
  csv: string;
  column: string;
  about: string;
  metric?: PerOpMetric;
}

/** A per-op figure's Prometheus family (metrics makes one per table entry): its name, help text and stored unit. */
export interface PerOpMetric {
  name: string;
  help: string;
  unit: PerOpUnit;
}

/** QPS as the per-op tables show it: operations per second, after the per-op figures. */
export const QPS_FIGURE = { field: 'qps', header: 'o/s', csv: 'qps' } as const;

type Entry = (typeof PER_OP_FIGURES)[number];

/** The rate figures: the reference studies' columns, in every result. */
export const RATE_FIGURES = PER_OP_FIGURES.filter((f) => f.kind === 'rate') as Extract<Entry, { kind: 'rate' }>[];

/** The columns of the per-op tables: the reference studies' (rate figures, then o/s), then time per operation. */
export const TABLE_FIGURES = [...RATE_FIGURES, QPS_FIGURE, ...PER_OP_FIGURES.filter((f) => f.kind === 'time')] as const;

export type PerOpField = Entry['field'];
export type RateField = Extract<Entry, { kind: 'rate' }>['field'];
export type TimeField = Extract<Entry, { kind: 'time' }>['field'];
/** The figure's column in the store's tables. */
export type PerOpColumn = Entry['column'];

/**
 * Host resources and time per operation of one run, or their medians over a side's runs. A time figure is absent
 * (or NaN) where the result was stored or imported before it existed.
 */
export type PerOp = Record<RateField, number> & Partial<Record<TimeField, number>>;

/** QPS and the per-op figures: of one run, one side of a session, or one version in a history. */
export type Figures = PerOp & { qps: number };

/** QPS first, then the per-op figures in table order: every field of Figures. */
export const FIGURE_FIELDS: readonly (keyof Figures)[] = ['qps', ...PER_OP_FIGURES.map((f) => f.field)];

/** The figures' row with each value passed through `valueOf`, in table order. */
export function mapFigures(valueOf: (field: keyof Figures) => number): Figures {
  return Object.fromEntries(FIGURE_FIELDS.map((field) => [field, valueOf(field)])) as Figures;
}

/** The per-op figures with each value passed through `valueOf`. */
export function mapPerOp(valueOf: (field: PerOpField) => number): PerOp {
  return Object.fromEntries(PER_OP_FIGURES.map(({ field }) => [field, valueOf(field)])) as PerOp;
}

/** Every per-op figure of one run, computed by its entry of the table. */
export function perOpOfRun(run: FigureRun): Required<PerOp> {
  return Object.fromEntries(PER_OP_FIGURES.map((f) => [f.field, f.of(run)])) as Required<PerOp>;
}

/** A figure's value, NaN where it is absent (a time figure of a result older than the figure). */
export const figureOf = (figures: Partial<Figures>, field: keyof Figures): number => figures[field] ?? Number.NaN;

/** Whether a hint item names a figure of time spent waiting (off CPU) rather than a resource that grew. */
export const isWaitingHint = (hint: { metric: string }): boolean =>
  PER_OP_FIGURES.some((f) => f.hint === 'waiting' && f.header === hint.metric);

/** sysbench's 95th percentile latency (ms): a figure of a run, not per op, kept and exported with the table's. */
export const LATENCY_P95_FIELD = 'latencyP95Ms';
/** The figures a session's samples carry for /metrics and history: the table's (QPS first) and p95 latency. */
export type SampleFigureField = keyof Figures | typeof LATENCY_P95_FIELD;
export const SAMPLE_FIGURE_FIELDS: readonly SampleFigureField[] = [
  'qps',
  ...PER_OP_FIGURES.map((f) => f.field),
  LATENCY_P95_FIELD,
];

/** cpu/o x CPUs x 1e4: CPU microseconds per operation (percent of all CPUs x CPUs / 100 = CPU-seconds per second). */
export function cpuMicrosPerOp(cpuPerOp: number, cpus: number): number {
  return cpuPerOp * cpus * 1e4;
}
