import { InputError } from '../errors.js';
/** Script options as the suite file gives them; rendered as --key=value (booleans as on/off). */
export type ScriptArgs = Readonly<Record<string, string | number | boolean>>;

/** The data set every test of a suite runs against, created by `sysbench <script> prepare`. */
export interface SuiteLoad {
  tables: number;
  tableSize: number;
  script: string;
  /** Absolute path of the Lua script, as sysbench is given it. */
  scriptPath: string;
  args: ScriptArgs;
}

/**
 * A run before the measured tests that fills caches; sysbench 1.0.20 has no --warmup-time.
 * Carries the load so its argv can be built from it alone.
 */
export interface SuiteWarmup {
  script: string;
  scriptPath: string;
  args: ScriptArgs;
  seconds: number;
  threads: number;
  load: SuiteLoad;
}

/** One measured test: run once per thread count, in order. */
export interface SuiteTest {
  name: string;
  script: string;
  scriptPath: string;
  args: ScriptArgs;
  seconds: number;
  threads: readonly number[];
  load: SuiteLoad;
}

export interface Suite {
  name: string;
  description: string;
  /** The YAML file it was read from. */
  file: string;
  load: SuiteLoad;
  warmup: SuiteWarmup;
  tests: readonly SuiteTest[];
  /** Paired design: the suite's own budget for measuring pairs, in minutes (see DEFAULT_BUDGET_MINUTES). */
  budgetMinutes: number;
}

/** A suite file that names no budget gets this many minutes of pairs per session. */
export const DEFAULT_BUDGET_MINUTES = 30;

/** What a caller may change for one session, e.g. short runs for a demo. */
export interface SuiteOverrides {
  /** Seconds of every test and of the warm-up. */
  seconds?: number;
  /** Thread counts of every test (the warm-up keeps its own). */
  threads?: number[];
}

/** A suite file that cannot be used; `field` is the path in the file, e.g. `tests[2].script`. */
export class SuiteError extends InputError {
  constructor(
    message: string,
    readonly file: string,
    readonly field?: string,
    readonly value?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
