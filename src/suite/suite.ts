import { InputError } from '../errors.js';
import type { MemorySettingName } from '../model/index.js';
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
  /** The database its tables are created in: each data set of a suite has its own (see Suite.loads). */
  database: string;
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

/**
 * One measured test: run once per thread count, in order. A suite with levels has one per test and level, each with
 * the level's one thread count and load: a test and its threads name it (testKey), never its name alone.
 */
export interface SuiteTest {
  name: string;
  script: string;
  scriptPath: string;
  args: ScriptArgs;
  seconds: number;
  threads: readonly number[];
  load: SuiteLoad;
}

/** A concurrency level of a suite file, resolved on this host. */
export interface SuiteLevel {
  /** As the suite file gives it: 4, "cores", "4*cores". */
  threadsSpec: number | string;
  /** The resolved client threads on this host. */
  threads: number;
  load: SuiteLoad;
  /** The suite's tests this level runs. */
  tests: readonly string[];
}

export interface Suite {
  name: string;
  description: string;
  /** The YAML file it was read from. */
  file: string;
  /** The first data set; a suite without levels has only this one. */
  load: SuiteLoad;
  /** Every data set the tests run against, each loaded into its own database, each warmed up before measuring. */
  loads: readonly SuiteLoad[];
  /** The levels as resolved on this host; empty for a suite without levels. */
  levels: readonly SuiteLevel[];
  warmup: SuiteWarmup;
  tests: readonly SuiteTest[];
  /** Paired design: the suite's own budget for measuring pairs, in minutes (see DEFAULT_BUDGET_MINUTES). */
  budgetMinutes: number;
  /** The memory setting the suite is made for; its sessions run under it unless another is named. */
  memory?: MemorySettingName;
  /** io-bound: the buffer pool its data is sized against, instead of the io_bound_buffer_pool option's. */
  ioBoundBufferPool?: string;
}

/** A suite file that names no budget gets this many minutes of pairs per session. */
export const DEFAULT_BUDGET_MINUTES = 30;

/** What a caller may change for one session, e.g. short runs for a demo. */
export interface SuiteOverrides {
  /** Seconds of every test and of the warm-up. */
  seconds?: number;
  /** Thread counts of every test (the warm-up keeps its own); refused for a suite with levels. */
  threads?: number[];
  /** The host's cores for `cores` and `N*cores` levels; default os.availableParallelism(). */
  cores?: number;
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
