import { z } from 'zod';
import { instructionCounterKinds, instructionVerdictKinds, sampleRoles } from '../model/index.js';
import {
  instructionLaneStates,
  type InstructionCheckInput,
  type InstructionFunctionsInput,
  type InstructionLaneInput,
  type InstructionRunInput,
} from './instruction-types.js';
import { aboveZero, atLeastZero, jsonObject, line, parseRecord, text, wholeFrom } from './validate.js';

const role = z.enum(sampleRoles, { error: 'expected "baseline" or "candidate"' });

const runSchema = z.object({
  role,
  target: text(),
  buildKey: line(),
  test: text(),
  threads: wholeFrom(1),
  repeat: wholeFrom(1),
  instructions: wholeFrom(0),
  // The per-query divisor: a run that asked no query has no figure.
  queries: wholeFrom(1),
  conditions: jsonObject(),
  conditionKey: line(),
  seconds: atLeastZero(),
});

const functionSchema = z.object({
  name: text(),
  object: z.string(),
  inclusive: atLeastZero(),
  exclusive: atLeastZero(),
});

const functionsSchema = z.object({
  role,
  test: text(),
  threads: wholeFrom(1),
  functions: z.array(functionSchema),
});

const laneSchema = z.object({
  state: z.enum(instructionLaneStates, { error: `expected one of ${instructionLaneStates.join(', ')}` }),
  reason: line().optional(),
  counter: z.enum(instructionCounterKinds, { error: 'expected "callgrind" or "perf"' }).optional(),
  counterVersion: line().optional(),
  runs: wholeFrom(0),
  seconds: atLeastZero(),
});

const sideSchema = z.object({
  perQuery: z.array(aboveZero()).min(1, { error: 'expected at least one repeat' }),
  median: aboveZero(),
  spread: atLeastZero(),
});

export const instructionVerdictSchema = z.object({
  test: text(),
  threads: wholeFrom(1),
  kind: z.enum(instructionVerdictKinds, { error: `expected one of ${instructionVerdictKinds.join(', ')}` }),
  ratio: aboveZero(),
  low: aboveZero(),
  high: aboveZero(),
  threshold: aboveZero(),
  baseline: sideSchema,
  candidate: sideSchema,
});

export const instructionCheckSchema = z.object({
  verdicts: z.array(instructionVerdictSchema),
  openEvents: z.array(
    z.object({
      test: text(),
      threads: wholeFrom(1),
      ratio: aboveZero(),
      kind: z.enum(['regression', 'drift'], { error: 'expected "regression" or "drift"' }),
      baselineReleaseId: wholeFrom(1),
    }),
  ),
  fixedEventIds: z.array(wholeFrom(1)),
});

export function parseInstructionRun(input: InstructionRunInput): InstructionRunInput {
  return parseRecord(runSchema, 'instructions', input) as InstructionRunInput;
}

export function parseInstructionFunctions(input: InstructionFunctionsInput): InstructionFunctionsInput {
  return parseRecord(functionsSchema, 'instructions', input);
}

export function parseInstructionLane(input: InstructionLaneInput): InstructionLaneInput {
  return parseRecord(laneSchema, 'instructions', input) as InstructionLaneInput;
}

export function parseInstructionCheck(input: InstructionCheckInput): InstructionCheckInput {
  return parseRecord(instructionCheckSchema, 'check', input) as InstructionCheckInput;
}
