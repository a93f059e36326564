import { z } from 'zod';
import { PER_OP_FIGURES, type RateField, type TimeField } from '../model/index.js';
import { InvalidRecordError } from './errors.js';
import { findJsonProblem, isPlainObject } from './json-value.js';
import type { BuildInput, ReleaseInput } from './release-types.js';
import type { HostInput } from './host-types.js';
import type { SampleInput } from './sample-types.js';
import { sessionStates, type SessionInput, type SessionQuery } from './session-types.js';

/**
 * Every backend validates through here before writing, so no backend can store NaN, Infinity or a negative rate, and
 * the error names the field whatever the backend.
 */

export const finite = () => z.number({ error: 'expected a finite number' });
export const atLeastZero = () => finite().min(0, { error: 'expected a finite number >= 0' });
export const aboveZero = () => finite().gt(0, { error: 'expected a finite number > 0' });
export const wholeFrom = (min: number) =>
  z.int({ error: 'expected a whole number' }).min(min, { error: `expected a whole number >= ${min}` });
export const anyText = () => z.string({ error: 'expected a string' });
export const text = () => anyText().min(1, { error: 'expected a non-empty string' });
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
export const line = () =>
  text().refine((t) => !CONTROL_CHARS.test(t), { error: 'expected one line without control characters' });
export const jsonObject = () => z.custom<Record<string, unknown>>(isPlainObject, { error: 'expected a plain object' });
/** Every per-op figure of the figure table: a finite number, 0 or more; a time figure may be absent (older data). */
export const perOpShape = () =>
  Object.fromEntries(
    PER_OP_FIGURES.map((f) => [f.field, f.kind === 'rate' ? atLeastZero() : atLeastZero().optional()]),
  ) as Record<RateField, ReturnType<typeof atLeastZero>> &
    Record<TimeField, z.ZodOptional<ReturnType<typeof atLeastZero>>>;

const hostSchema = z.object({ fingerprintId: text(), fingerprint: jsonObject() });

const targetRefSchema = z.object({
  name: text(),
  flavor: text(),
  version: anyText(),
  binary: anyText(),
  serverProfile: anyText(),
  description: jsonObject(),
});

const sessionSchema = z.object({
  kind: z.literal('compare', { error: 'expected "compare"' }),
  hostId: wholeFrom(1),
  baseline: targetRefSchema,
  candidate: targetRefSchema,
  suite: text(),
  rounds: wholeFrom(1),
  pid: wholeFrom(1),
  pidStartTicks: wholeFrom(0).optional(),
  settings: jsonObject(),
});

const sampleSchema = z.object({
  round: wholeFrom(0),
  role: z.enum(['baseline', 'candidate'], { error: 'expected "baseline" or "candidate"' }),
  targetName: text(),
  test: text(),
  threads: wholeFrom(1),
  seconds: aboveZero(),
  qps: atLeastZero(),
  tps: atLeastZero(),
  latencyAvgMs: atLeastZero(),
  latencyP95Ms: atLeastZero(),
  latencyMaxMs: atLeastZero(),
  errors: wholeFrom(0),
  reconnects: wholeFrom(0),
  ...perOpShape(),
  host: jsonObject(),
  // Gauges such as Threads_running can fall during a run, so a counter delta may be negative, never non-finite.
  dbCounters: z.record(text(), z.object({ delta: finite(), perOp: finite() })),
});

const commitSha = () => z.string().regex(/^[0-9a-f]{40}$/, { error: 'expected a 40-character hex commit id' });

const releaseSchema = z.object({
  upstream: text(),
  flavor: text(),
  tag: text(),
  commit: commitSha(),
  version: text(),
  versionKey: text(),
});

const buildSchema = z.object({
  releaseId: wholeFrom(1),
  buildKey: text(),
  profile: text(),
  compiler: text(),
  installDir: text(),
  logFile: text(),
  pid: wholeFrom(1),
});

const querySchema = z.object({
  limit: wholeFrom(1),
  state: z.enum(sessionStates, { error: `expected one of ${sessionStates.join(', ')}` }).optional(),
});

export type RecordKind = InvalidRecordError['record'];

export function parseRecord<T>(schema: z.ZodType<T>, record: RecordKind, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path ?? [];
    throw new InvalidRecordError(record, pathText(path), valueAt(input, path), issue?.message ?? 'invalid');
  }
  const problem = findJsonProblem(result.data, '');
  if (problem) throw new InvalidRecordError(record, problem.path.replace(/^\./, ''), problem.value, problem.expected);
  return result.data;
}

export function parseHostInput(input: HostInput): HostInput {
  return parseRecord(hostSchema, 'host', input);
}

export function parseSessionInput(input: SessionInput): SessionInput {
  return parseRecord(sessionSchema, 'session', input);
}

export function parseSampleInput(input: SampleInput): SampleInput {
  return parseRecord(sampleSchema, 'sample', input);
}

export function parseReleaseInputs(inputs: readonly ReleaseInput[]): ReleaseInput[] {
  return inputs.map((input) => parseRecord(releaseSchema, 'release', input));
}

export function parseBuildInput(input: BuildInput): BuildInput {
  return parseRecord(buildSchema, 'build', input);
}

export function parseSessionQuery(input: SessionQuery): SessionQuery {
  return parseRecord(querySchema, 'query', input);
}

/** One schema each for a lone id and a lone text, built once: zod compiles every object schema it is given. */
const idSchema = wholeFrom(1);
const textSchema = text();

/**
 * Ids come from callers that may have parsed them from argv; check them like any other field. Called on every read
 * by id (a /metrics scrape reads each session once), so the schema is not built per call.
 */
export function checkId(record: RecordKind, field: string, value: number): number {
  return parseField(idSchema, record, field, value);
}

export function checkText(record: RecordKind, field: string, value: string): string {
  return parseField(textSchema, record, field, value);
}

function parseField<T>(schema: z.ZodType<T>, record: RecordKind, field: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidRecordError(record, field, value, result.error.issues[0]?.message ?? 'invalid');
  return result.data;
}

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join('');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
