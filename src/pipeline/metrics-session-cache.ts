import type { SampleRecord, Store, VerdictRecord } from '../store/index.js';
import type { SampleRole } from '../model/index.js';

/** One side's samples of one test in one session, figure by figure, as the metrics need them. */
export interface SideFigures {
  qps: number[];
  cpuPerOp: number[];
  csPerOp: number[];
  readsPerOp: number[];
  readKBPerOp: number[];
  writeKBPerOp: number[];
  latencyP95Ms: number[];
}

export const FIGURE_FIELDS = ['qps', 'cpuPerOp', 'csPerOp', 'readsPerOp', 'readKBPerOp', 'writeKBPerOp', 'latencyP95Ms'] as const;

export const emptyFigures = (): SideFigures => ({ qps: [], cpuPerOp: [], csPerOp: [], readsPerOp: [], readKBPerOp: [], writeKBPerOp: [], latencyP95Ms: [] });

export const testKey = (test: string, threads: number): string => `${test}\u0000${threads}`;

/** A done session's samples, by side and then by testKey(test, threads). */
export type SessionFigures = Record<SampleRole, Map<string, { test: string; threads: number; figures: SideFigures }>>;

/**
 * Done sessions and their verdicts never change (a person's `invalid` marks the check, which is read afresh on each
 * scrape), so their samples are read once, not on every scrape: with 100,000 samples in the store, reading them all
 * took over a second per scrape on a 2-CPU host, on the host whose benchmarks must not be disturbed. Entries that no
 * scrape asked for since the last sweep() are dropped, so memory follows the exported versions.
 */
export class SessionCache {
  readonly #figures = new Map<number, Promise<SessionFigures>>();
  readonly #verdicts = new Map<number, Promise<VerdictRecord[]>>();
  readonly #used = new Set<number>();

  constructor(private readonly store: Store) {}

  /** Only for done sessions: the samples of any other may still change. */
  figures(sessionId: number): Promise<SessionFigures> {
    return this.#remember(this.#figures, sessionId, async () => bySide(await this.store.samplesForSession(sessionId)));
  }

  /** Only for sessions with a recorded check: its verdicts were written with it, in one transaction. */
  verdicts(sessionId: number): Promise<VerdictRecord[]> {
    return this.#remember(this.#verdicts, sessionId, () => this.store.verdictsOfSession(sessionId));
  }

  sweep(): void {
    for (const map of [this.#figures, this.#verdicts] as Array<Map<number, unknown>>) {
      for (const id of map.keys()) if (!this.#used.has(id)) map.delete(id);
    }
    this.#used.clear();
  }

  #remember<T>(map: Map<number, Promise<T>>, id: number, read: () => Promise<T>): Promise<T> {
    this.#used.add(id);
    let entry = map.get(id);
    if (entry === undefined) {
      entry = read();
      // A failed read (store locked) is tried again at the next scrape, not remembered.
      entry.catch(() => map.delete(id));
      map.set(id, entry);
    }
    return entry;
  }
}

function bySide(samples: readonly SampleRecord[]): SessionFigures {
  const out: SessionFigures = { baseline: new Map(), candidate: new Map() };
  for (const s of samples) {
    const key = testKey(s.test, s.threads);
    let entry = out[s.role].get(key);
    if (entry === undefined) {
      entry = { test: s.test, threads: s.threads, figures: emptyFigures() };
      out[s.role].set(key, entry);
    }
    for (const f of FIGURE_FIELDS) entry.figures[f].push(s[f]);
  }
  return out;
}
