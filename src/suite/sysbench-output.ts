import { z } from 'zod';

const count = z.number().int().nonnegative();
// zod 4 numbers reject NaN and Infinity, so a parsed record never carries them.
const rate = z.number().nonnegative();

/** What one sysbench 1.0.20 `run` reports. Latencies are in milliseconds, rates per second. */
export const SysbenchResultSchema = z.strictObject({
  queries: count,
  /** The "queries:" rate: every statement, BEGIN and COMMIT included, as in the reference studies. */
  qps: rate,
  transactions: count,
  tps: rate,
  /** "total time": the measured interval. */
  seconds: rate,
  threads: z.number().int().positive(),
  latencyMs: z.strictObject({ min: rate, avg: rate, max: rate, p95: rate }),
  /** Errors sysbench ignored (by default deadlocks and lock wait timeouts: 1213, 1020, 1205). */
  errors: count,
  errorsPerSec: rate,
  reconnects: count,
});
export type SysbenchResult = z.infer<typeof SysbenchResultSchema>;

/** sysbench output that does not hold a complete run report. */
export class SysbenchOutputError extends Error {
  constructor(
    message: string,
    /** What was missing or unreadable, e.g. `"queries:" line`. */
    readonly missing: string,
    readonly lastLine: string,
    /** The first FATAL line, when sysbench reported one. */
    readonly fatalLine?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
const WITH_RATE = String.raw`\s+(\d+)\s+\(${NUMBER} per sec\.\)\s*$`;
const ALONE = String.raw`\s+${NUMBER}\s*$`;

/** A labelled line and the pattern of the whole line; the pattern's groups are the numbers read. */
interface Field {
  label: string;
  pattern: RegExp;
}

function field(label: string, valuePattern: string, prefix = ''): Field {
  const escaped = label.replace(/[()]/g, '\\$&');
  return { label, pattern: new RegExp(String.raw`^\s*${prefix}${escaped}${valuePattern}`) };
}

const THREADS = field('Number of threads:', ALONE);
const TRANSACTIONS = field('transactions:', WITH_RATE);
const QUERIES = field('queries:', WITH_RATE);
const IGNORED_ERRORS = field('ignored errors:', WITH_RATE);
const RECONNECTS = field('reconnects:', WITH_RATE);
const TOTAL_TIME = field('total time:', String.raw`\s+${NUMBER}s\s*$`);
const MIN = field('min:', ALONE);
const AVG = field('avg:', ALONE);
const MAX = field('max:', ALONE);
const PERCENTILE = field('th percentile:', ALONE, String.raw`(\d+)`);
// "sum:" closes the latency section: without it the section may have been cut.
const SUM = field('sum:', ALONE);

type Fail = (missing: string, how?: string) => never;

/** Parses the output of `sysbench ... run` (stdout, or stdout and stderr together). */
export function parseSysbenchOutput(text: string): SysbenchResult {
  const lines = text.split(/\r?\n/);
  const lastLine =
    lines
      .filter((l) => l.trim() !== '')
      .at(-1)
      ?.trim() ?? '';
  const fail: Fail = (missing, how = 'is truncated or is not the output of a sysbench run') => {
    throw new SysbenchOutputError(
      `sysbench output ${how}: ${missing} (last line: ${show(lastLine)})`,
      missing,
      lastLine,
    );
  };
  if (lastLine === '') fail('no output at all', 'is empty');
  const fatal = [...new Set(lines.filter((l) => l.startsWith('FATAL:')))];
  if (fatal[0] !== undefined) {
    // The first line often only says which call failed; the next ones carry the server's error.
    const message =
      `sysbench reported a fatal error: ` +
      `${fatal.slice(0, 3).map(show).join(' ')} (last line: ` +
      `${show(lastLine)})`;
    throw new SysbenchOutputError(message, 'a run without FATAL errors', lastLine, fatal[0]);
  }
  const read = (from: string[], f: Field): number[] => readNumbers(from, f, fail);
  // The report proper first (garbage has none), then in the order sysbench prints, so a cut output is
  // reported at the first thing it lacks.
  const stats = sectionAfter(lines, 'SQL statistics:') ?? fail('no "SQL statistics:" section');
  const [threads] = read(lines, THREADS);
  const [transactions, tps] = read(stats, TRANSACTIONS);
  const [queries, qps] = read(stats, QUERIES);
  const [errors, errorsPerSec] = read(stats, IGNORED_ERRORS);
  const [reconnects] = read(stats, RECONNECTS);
  const [seconds] = read(stats, TOTAL_TIME);
  const latency = sectionAfter(stats, 'Latency (ms):') ?? fail('no "Latency (ms):" section');
  const [min] = read(latency, MIN);
  const [avg] = read(latency, AVG);
  const [max] = read(latency, MAX);
  const [nth, p95] = read(latency, PERCENTILE);
  if (nth !== 95)
    fail(
      `the latency percentile is the ${nth}th, not the 95th; run sysbench with --percentile=95`,
      'does not have the expected form',
    );
  read(latency, SUM);
  const latencyMs = { min, avg, max, p95 };
  return validate(
    { queries, qps, transactions, tps, seconds, threads, latencyMs, errors, errorsPerSec, reconnects },
    lastLine,
  );
}

/** The lines after the first line that is exactly `header` (ignoring indentation). */
function sectionAfter(lines: string[], header: string): string[] | undefined {
  const at = lines.findIndex((l) => l.trim() === header);
  return at < 0 ? undefined : lines.slice(at + 1);
}

function readNumbers(lines: string[], f: Field, fail: Fail): number[] {
  for (const line of lines) {
    const match = f.pattern.exec(line);
    if (match !== null) return match.slice(1).map(Number);
  }
  const seen = lines.find((l) => l.includes(f.label));
  if (seen !== undefined) return fail(`the "${f.label}" line ${show(seen.trim())} has no readable value`);
  return fail(`no "${f.label}" line`);
}

function validate(record: unknown, lastLine: string): SysbenchResult {
  const parsed = SysbenchResultSchema.safeParse(record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.join('.') ?? '?';
  const message =
    `sysbench output has an unusable value for ${where}: ` +
    `${issue?.message ?? 'invalid'} (last line: ${show(lastLine)})`;
  throw new SysbenchOutputError(message, where, lastLine);
}

/** Quotes a line for a message; binary garbage stays readable and short. */
function show(line: string): string {
  const text = JSON.stringify(line);
  return text.length > 160 ? `${text.slice(0, 157)}..."` : text;
}
