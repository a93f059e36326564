import {
  groupMedians,
  type ReleaseFigureValues,
  type ReleaseGroup,
  type SampleFigureLists,
} from '../analysis/index.js';
import { testKey, type InstructionVerdict, type SampleRole, type TestId } from '../model/index.js';
import type {
  CheckStore,
  InstructionRunRecord,
  InstructionStore,
  SampleStore,
  SideTestFigures,
  VerdictRecord,
} from '../store/index.js';

/** A done session's samples, by side and then by testKey, figure by figure (the table's figures and p95 latency). */
export type SessionFigures = Record<SampleRole, Map<string, TestId & { figures: SampleFigureLists }>>;

/**
 * Done sessions and their verdicts never change (a person's `invalid` marks the check, which is read afresh on each
 * scrape), so their samples are read once, not on every scrape: with 100,000 samples in the store, reading them all
 * took over a second per scrape on a 2-CPU host, on the host whose benchmarks must not be disturbed. Entries that no
 * scrape asked for since the last sweep() are dropped, so memory follows the exported versions.
 */
export class SessionCache {
  readonly #figures = new Map<number, Promise<SessionFigures>>();
  readonly #verdicts = new Map<number, Promise<VerdictRecord[]>>();
  readonly #runs = new Map<number, Promise<InstructionRunRecord[]>>();
  readonly #laneVerdicts = new Map<number, Promise<InstructionVerdict[]>>();
  readonly #used = new Set<number>();

  constructor(private readonly store: SampleStore & CheckStore & Pick<InstructionStore, 'instructionRuns'>) {}

  /** Only for done sessions: the samples of any other may still change. */
  figures(sessionId: number): Promise<SessionFigures> {
    return this.#remember(this.#figures, sessionId, async () => bySide(await this.store.sampleFigures(sessionId)));
  }

  /** Only for sessions with a recorded check: its verdicts were written with it, in one transaction. */
  verdicts(sessionId: number): Promise<VerdictRecord[]> {
    return this.#remember(this.#verdicts, sessionId, () => this.store.verdictsOfSession(sessionId));
  }

  /** Only for done sessions: the instructions lane's runs are stored while the session runs. */
  instructionRuns(sessionId: number): Promise<InstructionRunRecord[]> {
    return this.#remember(this.#runs, sessionId, () => this.store.instructionRuns(sessionId));
  }

  /** Only for sessions with a recorded check: the lane's verdicts were written with it. */
  instructionVerdicts(sessionId: number): Promise<InstructionVerdict[]> {
    return this.#remember(this.#laneVerdicts, sessionId, () => this.store.instructionVerdictsOfSession(sessionId));
  }

  sweep(): void {
    for (const map of [this.#figures, this.#verdicts, this.#runs, this.#laneVerdicts] as Array<Map<number, unknown>>) {
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

/** The store reads only the figures, already by side and test (store.sampleFigures): no SampleRecord per sample. */
function bySide(tests: readonly SideTestFigures[]): SessionFigures {
  const out: SessionFigures = { baseline: new Map(), candidate: new Map() };
  for (const { role, test, threads, figures } of tests)
    out[role].set(testKey({ test, threads }), { test, threads, figures });
  return out;
}

/**
 * Medians of a group, remembered while its session sides stay the same: between two scrapes usually nothing
 * changed, and sorting every sample's figures again was most of a scrape's time with 100,000 samples.
 */
export class MedianMemo {
  readonly #memo = new Map<string, { signature: string; medians: ReleaseFigureValues }>();
  readonly #used = new Set<string>();

  of(group: ReleaseGroup): ReleaseFigureValues {
    this.#used.add(group.key);
    const known = this.#memo.get(group.key);
    if (known?.signature === group.signature) return known.medians;
    const medians = groupMedians(group);
    this.#memo.set(group.key, { signature: group.signature, medians });
    return medians;
  }

  sweep(): void {
    for (const key of this.#memo.keys()) if (!this.#used.has(key)) this.#memo.delete(key);
    this.#used.clear();
  }
}
