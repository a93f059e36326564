import { z } from 'zod';

const positiveInt = z.number({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).min(1, { error: 'expected a whole number >= 1' });
const threadsList = z.array(positiveInt, { error: 'expected a list of thread counts, e.g. [1, 2]' }).min(1, { error: 'expected at least one thread count' });

/** Test and suite names end up in metric labels, file names and report columns. */
const name = z.string({ error: 'expected a name' }).regex(/^[a-z0-9][a-z0-9._=-]*$/, { error: 'expected lower-case letters, digits, ".", "_", "=" or "-" (e.g. "point-query", "read-only_range=100")' });

/** A stock script name (oltp_point_select), a project script name (points) or a path relative to the suite file. */
const script = z.string({ error: 'expected a script name or path' }).min(1, { error: 'expected a script name or path' });

/** Script options, passed as --key=value; keys as sysbench's help shows them (range_size or range-size). */
const args = z.record(
  z.string().regex(/^[a-z][a-z0-9_-]*$/, { error: 'expected an option name such as range_size' }),
  z.union([z.string(), z.number(), z.boolean()], { error: 'expected a string, number or true/false' }),
);

export const SuiteFileSchema = z.strictObject({
  name,
  description: z.string({ error: 'expected a text' }),
  /** Paired design: the minutes a session may spend measuring pairs, unless the config or an upstream says otherwise. */
  budget_minutes: z.number({ error: 'expected a number of minutes' }).gt(0, { error: 'expected a number of minutes greater than 0' }).optional(),
  load: z.strictObject({
    tables: positiveInt,
    table_size: positiveInt,
    /** The script whose `prepare` creates the tables; every oltp_* script creates the same ones. */
    script: script.default('oltp_read_only'),
    args: args.default({}),
  }),
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
