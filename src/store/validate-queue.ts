import { z } from 'zod';
import { queueStates } from '../model/index.js';
import type { DaemonStateInput } from './daemon-state-types.js';
import type { QueueClaim, QueueFailure, QueueMove, QueueRecoveryScope } from './queue-types.js';
import { messageSchema } from './validate-checks.js';
import type { QuietHostInput } from './quiet-host-types.js';
import { anyText, atLeastZero, jsonObject, parseRecord, text, wholeFrom } from './validate.js';

const iso = () => text().refine((t) => !Number.isNaN(Date.parse(t)), { error: 'expected an ISO 8601 time' });
/** '' is the pre-fleet queue's slot: it can be read and moved, and a daemon adopts it (recoverQueue). */
const slot = () => anyText().max(255, { error: 'expected at most 255 characters' });

const moveSchema = z.object({
  slot: slot(),
  releaseId: wholeFrom(1),
  claimant: text().optional(),
  to: z.enum(queueStates, { error: `expected one of ${queueStates.join(', ')}` }),
  from: z.enum(queueStates, { error: `expected one of ${queueStates.join(', ')}` }).optional(),
  error: text().optional(),
});

const claimSchema = z.object({
  slot: slot(),
  releaseId: wholeFrom(1),
  to: z.enum(['building', 'benchmarking'], { error: 'expected "building" or "benchmarking"' }),
  claimant: text(),
  until: iso(),
});

const scopeSchema = z.object({ slot: slot(), claimant: text(), now: iso() });

const failureSchema = z.object({
  slot: slot(),
  releaseId: wholeFrom(1),
  claimant: text().optional(),
  step: z.enum(['build', 'session'], { error: 'expected "build" or "session"' }),
  error: text(),
  errorLines: z.array(anyText()),
  retryAt: text()
    .refine((t) => !Number.isNaN(Date.parse(t)), { error: 'expected an ISO 8601 time' })
    .optional(),
  message: messageSchema.optional(),
});

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

export function parseQueueClaim(input: QueueClaim): QueueClaim {
  return parseRecord(claimSchema, 'queue', input);
}

export function parseQueueRenewal(input: Omit<QueueClaim, 'to'>): Omit<QueueClaim, 'to'> {
  return parseRecord(claimSchema.omit({ to: true }), 'queue', input);
}

export function parseQueueScope(input: QueueRecoveryScope): QueueRecoveryScope {
  return parseRecord(scopeSchema, 'queue', input);
}

/** The slot of a read; undefined (every slot) where the read allows it. */
export function parseQueueSlot(input: string): string {
  return parseRecord(z.object({ slot: slot() }), 'queue', { slot: input }).slot;
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

/** A daemon's host_name, or '' for the row of a store from before fleets. */
export function parseDaemonHost(host: string): string {
  return parseRecord(z.object({ host: slot() }), 'daemon', { host }).host;
}
