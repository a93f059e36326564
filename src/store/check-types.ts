/**
 * What a release check leaves behind: the verdicts of its session, the regression events it opened or closed, the
 * people's triage, and the reruns `invalid` asks for. A check is one session that judged a release against the last
 * good release of its upstream; the messages it queues are the outbox's (outbox-types.ts).
 */
import type { TestId, Verdict, VerdictReachField } from '../model/index.js';
import type { MessageInput } from './outbox-types.js';
import type { InstructionCheckInput, InstructionEventRecord, InstructionVerdictRecord } from './instruction-types.js';

/** A verdict as a check stores it: analysis's verdict, whole. */
export type VerdictInput = Verdict;

/** Verdicts stored before migration 6 have no interval or detectable drop: those fields are null. */
export type VerdictRecord = Omit<Verdict, VerdictReachField> & { [K in VerdictReachField]: Verdict[K] | null } & {
  sessionId: number;
};

/** The outcome of a whole check: regression when any test regressed, ok otherwise (see docs/verdicts.md). */
export type CheckOutcome = 'ok' | 'regression';

export interface CheckInput {
  sessionId: number;
  releaseId: number;
  baselineReleaseId: number;
  outcome: CheckOutcome;
  /** Whether the check is conclusive is not given: the store works it out from these by the one rule (isConclusive). */
  verdicts: VerdictInput[];
  /** Tests that regressed with no open event for them in the upstream: each opens one. */
  openEvents: Array<TestId & { relativeQps: number }>;
  /**
   * What the events this check opens are: drift when the check was directly against the series' base. Default
   * regression.
   */
  eventKind?: EventKind;
  /** Open events this check shows recovered: closed as fixed by this release. */
  fixedEventIds: number[];
  messages: MessageInput[];
  /**
   * The instructions lane's verdicts and events, when the session counted them. A regression among its verdicts keeps
   * the check from making its release last good, as a regression of the QPS lane does.
   */
  instructions?: InstructionCheckInput;
}

export interface CheckRecord {
  sessionId: number;
  releaseId: number;
  baselineReleaseId: number;
  outcome: CheckOutcome;
  /**
   * True only when every test was ok or improvement (model isConclusive, applied by the store as the check is
   * recorded): only then may the release become last good on this check. A regression, slower or unstable test
   * leaves it false.
   */
  conclusive: boolean;
  /** Set by `qpswatch invalid`: the check never counts for last good. */
  invalid: boolean;
  judgedAt: string;
}

export const eventStates = ['open', 'fixed', 'accepted', 'invalid'] as const;

/**
 * regression: a test judged past the threshold against the release's last good; drift: against the series' base,
 * in a session run directly against it (the confirmation of a chained loss, a check with --against-base, or a
 * re-anchoring check), so the loss may have come over several releases. Both are triaged alike.
 */
export const eventKinds = ['regression', 'drift'] as const;
export type EventKind = (typeof eventKinds)[number];
export type EventState = (typeof eventStates)[number];

export interface EventQuery {
  upstream?: string;
  state?: EventState;
}

/** One test of one upstream that regressed, from the release where it started until it is closed. */
export interface EventRecord extends TestId {
  id: number;
  upstream: string;
  releaseId: number;
  baselineReleaseId: number;
  sessionId: number;
  relativeQps: number;
  kind: EventKind;
  state: EventState;
  /** Acknowledged by a person: still reported, no more email. */
  acked: boolean;
  openedAt: string;
  closedAt: string | null;
  closedByReleaseId: number | null;
}

export const triageActions = ['accept', 'ack', 'invalid', 'fixed'] as const;
export type TriageAction = (typeof triageActions)[number];

export interface TriageInput {
  releaseId: number;
  action: Exclude<TriageAction, 'fixed'>;
  /** ack may name one test; accept and invalid are about the whole release. */
  test?: { test: string; threads?: number };
  who: string;
  reason: string;
}

export interface TriageRecord {
  id: number;
  releaseId: number;
  action: TriageAction;
  test: string | null;
  threads: number | null;
  who: string;
  reason: string;
  at: string;
}

export interface TriageResult {
  triage: TriageRecord;
  /** Events closed (accept, invalid) or acknowledged (ack). */
  events: EventRecord[];
  /** Checks marked invalid (invalid only). */
  invalidatedChecks: number;
  /** The instructions lane's events it closed or acknowledged, as `events` for the QPS lane's. */
  instructionEvents: InstructionEventRecord[];
}

export interface RerunRecord {
  releaseId: number;
  reason: string;
  requestedAt: string;
}

/** Checks of releases and what follows from them: verdicts, regression events, triage, reruns. */
export interface CheckStore {
  /**
   * Records a done session as a check of a release: its verdicts, the regression events it opens and closes (each
   * closed one with a `fixed` triage row by qpswatch) and the messages to send, in one transaction. Satisfies a
   * rerun request for the release.
   */
  recordCheck(input: CheckInput): Promise<CheckRecord>;
  /** Checks in session order, of one upstream's releases or of all. */
  listChecks(upstream?: string): Promise<CheckRecord[]>;
  getCheck(sessionId: number): Promise<CheckRecord | undefined>;
  verdictsOfSession(sessionId: number): Promise<VerdictRecord[]>;
  listEvents(query: EventQuery): Promise<EventRecord[]>;
  /** The instructions lane's verdicts of a check's session, as recorded with the check. */
  instructionVerdictsOfSession(sessionId: number): Promise<InstructionVerdictRecord[]>;
  /** The instructions lane's events (instruction_events), oldest first. */
  listInstructionEvents(query: EventQuery): Promise<InstructionEventRecord[]>;
  /**
   * A person's word on a release, with its effect, in one transaction. accept: open events of the upstream up to
   * this release are closed as accepted. ack: the release's open events (or one test's) are acknowledged.
   * invalid: the release's checks stop counting, the events they opened are closed as invalid, a rerun is queued.
   * The instructions lane's events are triaged alike, in the same transaction.
   */
  triage(input: TriageInput): Promise<TriageResult>;
  listTriage(releaseId?: number): Promise<TriageRecord[]>;
  /** Releases sent back for another check, oldest request first. */
  listReruns(): Promise<RerunRecord[]>;
}
