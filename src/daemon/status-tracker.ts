import type { ProgressFigures } from '../metrics/index.js';
import { CacheSizeCache } from '../compile/index.js';
import { type PhaseDetail } from './cycle.js';
import { queueStates, type CacheSizes, type CyclePhase, type QueueState, type WorkProgress } from '../model/index.js';
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

export interface StatusTrackerOptions {
  /** Measures ccache, the mirrors and the installs (measureCacheSizes); without it no sizes are known. */
  measureCacheSizes?: (signal: AbortSignal) => Promise<CacheSizes>;
  /** The most often progress is written to the store while it changes (the memory always has the newest). */
  progressWriteMs?: number;
  /** How old the cache sizes may get before they are measured again (CACHE_SIZES_MAX_AGE_MS). */
  cacheSizesMaxAgeMs?: number;
  /** host_name: the daemon's row of state in a store a fleet shares; default '' (a store of one host). */
  hostName?: string;
  /** The queue slot whose counts the status shows (fleet.ts); default every slot's. */
  slot?: string;
}

/** A status in another process is read by a person: every few seconds is fresh enough, and spares the store. */
const PROGRESS_WRITE_MS = 5_000;

const emptyQueue = (): Record<QueueState, number> =>
  Object.fromEntries(queueStates.map((s) => [s, 0])) as Record<QueueState, number>;

/**
 * What the daemon is doing, in memory for metrics and logs, and written to the store's daemon state (one small row
 * per phase change) so `qpswatch status` in another process can show it.
 */
export class StatusTracker {
  #snapshot: DaemonStatusSnapshot = {
    phase: 'idle',
    since: new Date(),
    tag: null,
    waitingReason: null,
    quietWaitSeconds: 0,
    queue: emptyQueue(),
    pollIntervalSeconds: 0,
    nextPoll: null,
    lastPollAt: null,
  };

  #work: WorkProgress | null = null;
  #workWrittenAt = 0;
  /** Store writes of progress and sizes, one after the other, so an older figure never lands after a newer one. */
  #writes: Promise<void> = Promise.resolve();
  readonly #cacheSizes: CacheSizeCache | undefined;
  readonly #stop = new AbortController();

  constructor(
    private readonly store: QueueStore & DaemonStateStore,
    private readonly log: Logger,
    private readonly pid: number = process.pid,
    private readonly options: StatusTrackerOptions = {},
  ) {
    const measure = options.measureCacheSizes;
    if (measure !== undefined) {
      this.#cacheSizes = new CacheSizeCache({
        measure: () => measure(this.#stop.signal),
        ...(options.cacheSizesMaxAgeMs !== undefined ? { maxAgeMs: options.cacheSizesMaxAgeMs } : {}),
        onMeasured: (cacheSizes) => this.#write({ cacheSizes }),
        onError: (err) => {
          if (!this.#stop.signal.aborted)
            this.log.warn(
              { error: err instanceof Error ? err.message : String(err) },
              'measuring the cache sizes failed; the last figure stays',
            );
        },
      });
    }
  }

  /**
   * The work in progress and the last cache sizes, from memory; a stale size figure starts a measure in the background.
   */
  progress(): ProgressFigures {
    return { work: this.#work, cacheSizes: this.#cacheSizes?.latest() ?? null };
  }

  /**
   * How far the build or session is. Kept in memory at once (metrics), written to the store at most every few
   * seconds while it changes, and at once when the work starts, changes step or ends.
   */
  setProgress(work: WorkProgress | null): void {
    const before = this.#work;
    this.#work = work;
    const now = Date.now();
    const turned = work === null || before === null || before.kind !== work.kind || stepOf(before) !== stepOf(work);
    if (!turned && now - this.#workWrittenAt < (this.options.progressWriteMs ?? PROGRESS_WRITE_MS)) return;
    this.#workWrittenAt = now;
    void this.#write({ progress: work });
  }

  #write(input: Parameters<DaemonStateStore['setDaemonState']>[1]): Promise<void> {
    if (this.#stop.signal.aborted) return this.#writes;
    this.#writes = this.#writes
      .then(() => this.store.setDaemonState(this.options.hostName ?? '', input))
      .then(
        () => undefined,
        (err: unknown) =>
          this.log.warn(
            { error: err instanceof Error ? err.message : String(err) },
            'the progress could not be written to the store',
          ),
      );
    return this.#writes;
  }

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
    this.#snapshot = {
      ...this.#snapshot,
      phase,
      since,
      tag: detail.tag ?? null,
      waitingReason,
      quietWaitSeconds: phase === 'waiting_for_quiet_host' ? (detail.waitedSeconds ?? 0) : 0,
      queue: await this.store.countQueue(this.options.slot),
    };
    if (!samePhase)
      this.log.info({ phase, tag: detail.tag }, `phase: ${phase}${detail.tag !== undefined ? ` (${detail.tag})` : ''}`);
    // A new phase ends the work of the last one; a phase is also when the cache may have grown (a build, a prune).
    if (!samePhase) this.#work = null;
    this.#cacheSizes?.latest();
    await this.#writes;
    const text = [detail.tag, waitingReason].filter((x) => x !== undefined && x !== null).join(': ');
    const stored = await this.store.setDaemonState(this.options.hostName ?? '', {
      phase,
      phaseSince: since.toISOString(),
      detail: text === '' ? null : text,
      pid: this.pid,
      ...(samePhase ? {} : { progress: null }),
    });
    this.#snapshot = { ...this.#snapshot, lastPollAt: stored.lastPollAt };
  }

  async refreshQueue(): Promise<void> {
    this.#snapshot = { ...this.#snapshot, queue: await this.store.countQueue(this.options.slot) };
  }

  /** Before the store closes: a walk of the cache stops at its next entry, and the writes under way end. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.#cacheSizes?.settled();
    await this.#writes;
  }

  /** The daemon is gone: status must not show a phase nobody is in. */
  async stopped(): Promise<void> {
    this.#snapshot = {
      ...this.#snapshot,
      phase: 'idle',
      since: new Date(),
      tag: null,
      waitingReason: null,
      quietWaitSeconds: 0,
    };
    this.#work = null;
    await this.close();
    await this.store.setDaemonState(this.options.hostName ?? '', {
      phase: 'idle',
      phaseSince: this.#snapshot.since.toISOString(),
      detail: null,
      pid: null,
      progress: null,
    });
  }
}

function stepOf(work: WorkProgress): string {
  if (work.kind === 'build') return work.step;
  if (work.lane !== undefined && work.lane !== null) return `${work.stage} ${work.lane.run}/${work.lane.of}`;
  return `${work.stage} ${work.round}`;
}
