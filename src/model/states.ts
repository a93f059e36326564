/**
 * Where a release is in the daemon's queue: discovered -> building -> built -> benchmarking -> done; building or
 * benchmarking may end in failed. A dead daemon leaves building or benchmarking behind; the next start puts those
 * back one step.
 */
export const queueStates = ['discovered', 'building', 'built', 'benchmarking', 'done', 'failed'] as const;
export type QueueState = (typeof queueStates)[number];

/** What the daemon is doing: one phase at a time, idle between cycles. */
export const cyclePhases = [
  'idle',
  'discovering',
  'building',
  'waiting_for_quiet_host',
  'benchmarking',
  'notifying',
] as const;
export type CyclePhase = (typeof cyclePhases)[number];
