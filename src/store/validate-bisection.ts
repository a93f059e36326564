import { z } from 'zod';
import { bisectionOutcomes, bisectStepOutcomes, type BisectionInput } from './bisection-types.js';
import { anyText, finite, parseRecord, text, wholeFrom } from './validate.js';

const commitId = () => z.string().regex(/^[0-9a-f]{40}$/, { error: 'expected a 40-digit commit id' });
const iso = () => text().refine((t) => !Number.isNaN(Date.parse(t)), { error: 'expected an ISO 8601 time' });

const stepSchema = z.object({
  commit: commitId(),
  subject: anyText(),
  author: anyText(),
  outcome: z.enum(bisectStepOutcomes, { error: `expected one of ${bisectStepOutcomes.join(', ')}` }),
  buildKey: text().optional(),
  sessionId: wholeFrom(1).optional(),
  relativeQps: z.record(z.string(), finite()).optional(),
  instructionRatios: z.record(z.string(), finite()).optional(),
  failureLines: z.array(anyText()).optional(),
});

const bisectionSchema = z.object({
  releaseId: wholeFrom(1),
  goodReleaseId: wholeFrom(1),
  buildProfile: text(),
  tests: z.array(text()),
  commitCount: wholeFrom(0),
  outcome: z.enum(bisectionOutcomes, { error: `expected one of ${bisectionOutcomes.join(', ')}` }),
  firstBad: z.object({ commit: commitId(), subject: anyText(), author: anyText() }).optional(),
  candidates: z.array(commitId()),
  steps: z.array(stepSchema),
  builds: wholeFrom(0),
  startedAt: iso(),
  endedAt: iso(),
  eventId: wholeFrom(1).optional(),
  error: anyText().optional(),
});

export function parseBisectionInput(input: BisectionInput): BisectionInput {
  return parseRecord(bisectionSchema, 'bisection', input) as BisectionInput;
}
