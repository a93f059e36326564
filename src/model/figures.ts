/**
 * The figures of a measured run, as in the reference "relative QPS" studies: QPS, and host resources per operation
 * (see DESIGN "Measuring"). This table is the one list of the per-op figures: sampling computes them, the store keeps
 * them, analysis takes their medians and hints, report prints them and metrics exports them, each by walking it.
 */
export const PER_OP_FIGURES = [
  {
    field: 'cpuPerOp',
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
] as const satisfies readonly PerOpFigure[];

/**
 * How a figure's unit becomes the metric's base unit: cpu-percent (percent of all CPUs per operation) x CPUs / 100
 * gives CPU seconds, kilobytes x 1024 bytes, a count stays as it is.
 */
export const perOpUnits = ['cpu-percent', 'count', 'kilobytes'] as const;
export type PerOpUnit = (typeof perOpUnits)[number];

/** One entry of the figure table: the field in code, the header of the tables, the CSV and store column names. */
export interface PerOpFigure {
  field: string;
  header: string;
  csv: string;
  column: string;
  about: string;
  metric: PerOpMetric;
}

/** A per-op figure's Prometheus family (metrics makes one per table entry): its name, help text and stored unit. */
export interface PerOpMetric {
  name: string;
  help: string;
  unit: PerOpUnit;
}

/** QPS as the per-op tables show it: operations per second, after the per-op figures. */
export const QPS_FIGURE = { field: 'qps', header: 'o/s', csv: 'qps' } as const;

/** The columns of the reference studies' per-op tables, in their order: the per-op figures, then o/s. */
export const TABLE_FIGURES = [...PER_OP_FIGURES, QPS_FIGURE] as const;

export type PerOpField = (typeof PER_OP_FIGURES)[number]['field'];
/** The figure's column in the store's tables. */
export type PerOpColumn = (typeof PER_OP_FIGURES)[number]['column'];

/** Host resources per operation of one run, or their medians over a side's runs. */
export type PerOp = Record<PerOpField, number>;

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

/** cpu/o x CPUs x 1e4: CPU microseconds per operation (percent of all CPUs x CPUs / 100 = CPU-seconds per second). */
export function cpuMicrosPerOp(cpuPerOp: number, cpus: number): number {
  return cpuPerOp * cpus * 1e4;
}
