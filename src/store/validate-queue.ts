import { z } from 'zod';
import { queueStates } from '../model/index.js';
import type { DaemonStateInput } from './daemon-state-types.js';
import type { QueueFailure, QueueMove } from './queue-types.js';
import { messageSchema } from './validate-checks.js';
import type { QuietHostInput } from './quiet-host-types.js';
import { anyText, atLeastZero, jsonObject, parseRecord, text, wholeFrom } from './validate.js';

const moveSchema = z.object({
  releaseId: wholeFrom(1),
  to: z.enum(queueStates, { error: `expected one of ${queueStates.join(', ')}` }),
  error: text().optional(),
});

const failureSchema = z.object({
  releaseId: wholeFrom(1),
  step: z.enum(['build', 'session'], { error: 'expected "build" or "session"' }),
  error: text(),
  errorLines: z.array(anyText()),
  retryAt: text()
    .refine((t) => !Number.isNaN(Date.parse(t)), { error: 'expected an ISO 8601 time' })
    .optional(),
  message: messageSchema.optional(),
});

const iso = () => text().refine((t) => !Number.isNaN(Date.parse(t)), { error: 'expected an ISO 8601 time' });

const daemonSchema = z.object({
  lastPollAt: iso().nullable().optional(),
  phase: text().optional(),
  phaseSince: iso().nullable().optional(),
  detail: anyText().nullable().optional(),
  pid: wholeFrom(1).nullable().optional(),
  progress: jsonObject().nullable().optional(),
  cacheSizes: jsonObject().nullable().optional(),
});

const quietSchema = z.object({
  sessionId: wholeFrom(1),
  observation: jsonObject(),
  quiet: z.boolean({ error: 'expected true or false' }),
  reasons: z.array(text()),
  waitedSeconds: atLeastZero(),
});

export function parseQueueMove(input: QueueMove): QueueMove {
  return parseRecord(moveSchema, 'queue', input) as QueueMove;
}

export function parseQueueFailure(input: QueueFailure): QueueFailure {
  return parseRecord(failureSchema, 'queue', input) as QueueFailure;
}

export function parseDaemonState(input: DaemonStateInput): DaemonStateInput {
  return parseRecord(daemonSchema, 'daemon', input) as DaemonStateInput;
}

export function parseQuietHostInput(input: QuietHostInput): QuietHostInput {
  return parseRecord(quietSchema, 'session', input);
}
