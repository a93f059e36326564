import { z } from 'zod';
import type { CalibrationInput } from './calibration-types.js';
import { atLeastZero, jsonObject, parseRecord, text, wholeFrom } from './validate.js';

const share = () => atLeastZero().max(1, { error: 'expected a number from 0 to 1' });

const figureSchema = z.object({
  test: text(),
  threads: wholeFrom(1),
  pairs: wholeFrom(0),
  noise: atLeastZero().nullable(),
  pairSeconds: atLeastZero(),
  pairsNeeded: wholeFrom(1).nullable(),
  minutesNeeded: atLeastZero().nullable(),
  detectableDrop: share(),
  instanceSpread: atLeastZero().nullable().optional(),
});

const calibrationSchema = z.object({
  hostId: wholeFrom(1),
  sessionId: wholeFrom(1),
  suite: text(),
  target: text(),
  settings: jsonObject(),
  tests: z.array(figureSchema).min(1, { error: 'expected at least one test' }),
  instanceSpread: atLeastZero().nullable().optional(),
});

export function parseCalibrationInput(input: CalibrationInput): CalibrationInput {
  return parseRecord(calibrationSchema, 'calibration', input);
}
