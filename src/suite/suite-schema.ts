import { z } from 'zod';
import { memorySettings } from '../model/index.js';

const positiveInt = z
  .number({ error: 'expected a whole number' })
  .int({ error: 'expected a whole number' })
  .min(1, { error: 'expected a whole number >= 1' });
const threadsList = z
  .array(positiveInt, { error: 'expected a list of thread counts, e.g. [1, 2]' })
  .min(1, { error: 'expected at least one thread count' });

/** Test and suite names end up in metric labels, file names and report columns. */
const name = z.string({ error: 'expected a name' }).regex(/^[a-z0-9][a-z0-9._=-]*$/, {
  error: 'expected lower-case letters, digits, ".", "_", "=" or "-" (e.g. "point-query", "read-only_range=100")',
});

/** A stock script name (oltp_point_select), a project script name (points) or a path relative to the suite file. */
const script = z
  .string({ error: 'expected a script name or path' })
  .min(1, { error: 'expected a script name or path' });

/** Script options, passed as --key=value; keys as sysbench's help shows them (range_size or range-size). */
const args = z.record(
  z.string().regex(/^[a-z][a-z0-9_-]*$/, { error: 'expected an option name such as range_size' }),
  z.union([z.string(), z.number(), z.boolean()], { error: 'expected a string, number or true/false' }),
);

/** The data set a suite or level runs against; every oltp_* script's `prepare` creates the same tables. */
const load = z.strictObject({
  tables: positiveInt,
  table_size: positiveInt,
  /** The script whose `prepare` creates the tables. */
  script: script.optional(),
  args: args.optional(),
});

/**
 * A level's client threads: a whole number, or relative to the host: `cores`, `2*cores`, `N*cores` (cores: the CPUs
 * qpswatch may use, os.availableParallelism()). Resolved when the suite is loaded (resolveThreads).
 */
export const RELATIVE_THREADS = /^(?:([1-9][0-9]{0,3})\*)?cores$/;
const LEVEL_THREADS = {
  error: 'expected a whole number >= 1, or a count relative to the host: cores, 2*cores, 4*cores (N*cores)',
};
const levelThreads = z.union(
  [
    z.number(LEVEL_THREADS).int(LEVEL_THREADS).min(1, LEVEL_THREADS),
    z.string(LEVEL_THREADS).regex(RELATIVE_THREADS, LEVEL_THREADS),
  ],
  LEVEL_THREADS,
);

/** A concurrency level: its own thread count, its own data set, and the suite's tests it runs (all when omitted). */
const level = z.strictObject({
  threads: levelThreads,
  load,
  tests: z
    .array(name, { error: 'expected a list of test names from tests:' })
    .min(1, { error: 'expected at least one test name (or leave tests out: all tests)' })
    .optional(),
});

export const SuiteFileSchema = z.strictObject({
  name,
  description: z.string({ error: 'expected a text' }),
  /**
   * Paired design: the minutes a session may spend measuring pairs, unless the config or an upstream says otherwise.
   */
  budget_minutes: z
    .number({ error: 'expected a number of minutes' })
    .gt(0, { error: 'expected a number of minutes greater than 0' })
    .optional(),
  /**
   * The memory setting the suite is made for (an IO-bound suite's data is sized to miss the pool): its sessions run
   * under it unless compare --memory or the memory option names another.
   */
  memory: z.enum(memorySettings, { error: `expected ${memorySettings.join(' or ')}` }).optional(),
  /** io-bound: the buffer pool its data is sized against (the io_bound_buffer_pool option's, for this suite). */
  io_bound_buffer_pool: z
    .string({ error: 'expected a size such as 1G, 512M or 8M' })
    .regex(/^\d+[KMG]?$/, { error: 'expected a size such as 1G, 512M or 8M' })
    .optional(),
  /** Required without levels; with levels each level has its own, and this one is refused. */
  load: load.optional(),
  /** Concurrency levels, each with its own thread count, load and tests; without them every test runs on `load`. */
  levels: z
    .array(level, { error: 'expected a list of levels ({ threads, load, tests })' })
    .min(1, { error: 'expected at least one level' })
    .optional(),
  warmup: z.strictObject({
    script,
    seconds: positiveInt,
    threads: positiveInt,
    args: args.default({}),
  }),
  /** Values a test takes when it does not set its own. */
  defaults: z.strictObject({ seconds: positiveInt.optional(), threads: threadsList.optional() }).default({}),
  tests: z
    .array(
      z.strictObject({
        name,
        script,
        args: args.default({}),
        seconds: positiveInt.optional(),
        threads: threadsList.optional(),
      }),
      { error: 'expected a list of tests' },
    )
    .min(1, { error: 'expected at least one test' }),
});
export type SuiteFile = z.infer<typeof SuiteFileSchema>;
