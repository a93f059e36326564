/** Samples: one measured run of one test on one side of a session, with its host and database figures. */
import type { PerOp, SampleFigureField, SampleRole, TestId } from '../model/index.js';
import type { JsonObject } from './json-object.js';

export interface DbCounterValue {
  delta: number;
  perOp: number;
}

export interface SampleInput extends TestId, PerOp {
  round: number;
  role: SampleRole;
  targetName: string;
  seconds: number;
  qps: number;
  tps: number;
  latencyAvgMs: number;
  latencyP95Ms: number;
  latencyMaxMs: number;
  errors: number;
  reconnects: number;
  /** The raw host usage of the measured interval, kept whole so later questions can be asked of it. */
  host: object;
  dbCounters: Record<string, DbCounterValue>;
}

export interface SampleRecord extends Omit<SampleInput, 'host'> {
  id: number;
  sessionId: number;
  host: JsonObject;
  createdAt: string;
}

/** The samples of sessions: written while a session runs, read back whole. */
export interface SampleStore {
  /** Writes one sample with its host metrics and db counters in one transaction; the session must be running. */
  addSample(sessionId: number, input: SampleInput): Promise<number>;
  /** Every sample of the session, whatever its state, in the order written. */
  samplesForSession(sessionId: number): Promise<SampleRecord[]>;
  /** The session's samples if it is `done`, otherwise none: a half-run session never counts. */
  completedSamples(sessionId: number): Promise<SampleRecord[]>;
  /**
   * The session's figures (the table's and p95 latency), by side and test (in that order), sample by sample in the
   * order written.
   */
  sampleFigures(sessionId: number): Promise<SideTestFigures[]>;
}

/** One side's samples of one test, figure by figure. */
export interface SideTestFigures extends TestId {
  role: SampleRole;
  figures: Record<SampleFigureField, Float64Array>;
}
