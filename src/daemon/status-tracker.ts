import type { PhaseDetail } from '../pipeline/index.js';
import { queueStates, type CyclePhase, type QueueState } from '../model/index.js';
import type { DaemonStateStore, QueueStore } from '../store/index.js';
import type { Logger } from '../log/index.js';


export interface DaemonStatusSnapshot {
  phase: CyclePhase;
  /** When the phase started. */
  since: Date;
  /** The release being worked on, if any. */
  tag: string | null;
  /** Why the daemon waits (the quiet-host reasons), or null. */
  waitingReason: string | null;
  /** How long the current session has waited for a quiet host; 0 when not waiting. */
  quietWaitSeconds: number;
  queue: Record<QueueState, number>;
  /** The schedule's interval between polls. */
  pollIntervalSeconds: number;
  nextPoll: Date | null;
  /** When the last discovery of all upstreams finished (from the store), or null before the first. */
  lastPollAt: string | null;
}

const emptyQueue = (): Record<QueueState, number> => Object.fromEntries(queueStates.map((s) => [s, 0])) as Record<QueueState, number>;

/**
 * What the daemon is doing, in memory for metrics and logs, and written to the store's daemon state (one small row
 * per phase change) so `qpswatch status` in another process can show it.
 */
export class StatusTracker {
  #snapshot: DaemonStatusSnapshot = { phase: 'idle', since: new Date(), tag: null, waitingReason: null, quietWaitSeconds: 0, queue: emptyQueue(), pollIntervalSeconds: 0, nextPoll: null, lastPollAt: null };

  constructor(
    private readonly store: QueueStore & DaemonStateStore,
    private readonly log: Logger,
    private readonly pid: number = process.pid,
  ) {}

  get(): DaemonStatusSnapshot {
    return { ...this.#snapshot, queue: { ...this.#snapshot.queue } };
  }

  get phase(): CyclePhase {
    return this.#snapshot.phase;
  }

  setSchedule(pollIntervalSeconds: number, nextPoll: Date | null): void {
    this.#snapshot = { ...this.#snapshot, pollIntervalSeconds, nextPoll };
  }

  /** A new phase (or a new wait reason in the same phase); the queue counts are refreshed with it. */
  async setPhase(phase: CyclePhase, detail: PhaseDetail = {}): Promise<void> {
    const samePhase = phase === this.#snapshot.phase && (detail.tag ?? null) === this.#snapshot.tag;
    const since = samePhase ? this.#snapshot.since : new Date();
    const waitingReason = detail.reason ?? null;
    this.#snapshot = { ...this.#snapshot, phase, since, tag: detail.tag ?? null, waitingReason, quietWaitSeconds: phase === 'waiting_for_quiet_host' ? (detail.waitedSeconds ?? 0) : 0, queue: await this.store.countQueue() };
    if (!samePhase) this.log.info({ phase, tag: detail.tag }, `phase: ${phase}${detail.tag !== undefined ? ` (${detail.tag})` : ''}`);
    const text = [detail.tag, waitingReason].filter((x) => x !== undefined && x !== null).join(': ');
    const stored = await this.store.setDaemonState({ phase, phaseSince: since.toISOString(), detail: text === '' ? null : text, pid: this.pid });
    this.#snapshot = { ...this.#snapshot, lastPollAt: stored.lastPollAt };
  }

  async refreshQueue(): Promise<void> {
    this.#snapshot = { ...this.#snapshot, queue: await this.store.countQueue() };
  }

  /** The daemon is gone: status must not show a phase nobody is in. */
  async stopped(): Promise<void> {
    this.#snapshot = { ...this.#snapshot, phase: 'idle', since: new Date(), tag: null, waitingReason: null, quietWaitSeconds: 0 };
    await this.store.setDaemonState({ phase: 'idle', phaseSince: this.#snapshot.since.toISOString(), detail: null, pid: null });
  }
}
