import { z } from 'zod';
import { verdictKinds } from '../model/index.js';
import { eventKinds, triageActions, type CheckInput, type TriageInput } from './check-types.js';
import { aboveZero, atLeastZero, CONTROL_CHARS, finite, line, parseRecord, text, wholeFrom } from './validate.js';
import { instructionCheckSchema } from './validate-instructions.js';

const hintSchema = z.object({
  metric: text(),
  baseline: finite(),
  candidate: finite(),
  // null: the baseline was 0 and the candidate was not.
  ratio: atLeastZero().nullable(),
});

const verdictSchema = z.object({
  test: text(),
  threads: wholeFrom(1),
  kind: z.enum(verdictKinds, { error: `expected one of ${verdictKinds.join(', ')}` }),
  // A side with no queries gives a ratio of 0 or Infinity; neither is stored as a verdict.
  relativeQps: atLeastZero(),
  threshold: aboveZero(),
  pSlower: atLeastZero().max(1),
  pFaster: atLeastZero().max(1),
  baselineSpread: atLeastZero(),
  low: atLeastZero(),
  // An interval of a single pair has no upper end, and its noise is unknown: both null.
  high: atLeastZero().nullable(),
  confidence: aboveZero().max(1),
  detectableDrop: atLeastZero().max(1),
  pairs: wholeFrom(0),
  noise: atLeastZero().nullable(),
  orderEffect: aboveZero().nullable().optional(),
  logSe: atLeastZero().nullable().optional(),
  logSeDf: atLeastZero().nullable().optional(),
  hint: z.array(hintSchema),
});

export const messageSchema = z.object({
  eventKey: text(),
  from: line(),
  to: z.array(line()).min(1, { error: 'expected at least one recipient' }),
  subject: line(),
  text: z.string(),
  html: z.string(),
  messageId: line(),
});

const checkSchema = z.object({
  sessionId: wholeFrom(1),
  releaseId: wholeFrom(1),
  baselineReleaseId: wholeFrom(1),
  outcome: z.enum(['ok', 'regression'], { error: 'expected "ok" or "regression"' }),
  verdicts: z.array(verdictSchema),
  openEvents: z.array(z.object({ test: text(), threads: wholeFrom(1), relativeQps: atLeastZero() })),
  eventKind: z.enum(eventKinds, { error: 'expected "regression" or "drift"' }).optional(),
  fixedEventIds: z.array(wholeFrom(1)),
  messages: z.array(messageSchema),
  instructions: instructionCheckSchema.optional(),
});

const triageSchema = z.object({
  releaseId: wholeFrom(1),
  action: z.enum(triageActions.filter((a) => a !== 'fixed') as ['accept', 'ack', 'invalid'], {
    error: 'expected accept, ack or invalid',
  }),
  test: z.object({ test: text(), threads: wholeFrom(1).optional() }).optional(),
  who: line(),
  reason: z
    .string()
    .refine((t) => !CONTROL_CHARS.test(t.replace(/\n/g, ' ')), { error: 'expected text without control characters' }),
});

export function parseCheckInput(input: CheckInput): CheckInput {
  return parseRecord(checkSchema, 'check', input) as CheckInput;
}

export function parseTriageInput(input: TriageInput): TriageInput {
  return parseRecord(triageSchema, 'triage', input) as TriageInput;
}
