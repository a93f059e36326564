/**
 * What a release check leaves behind: the verdicts of its session, the regression events it opened or closed, the
 * people's triage and the messages waiting to be sent. A check is one session that judged a release against the
 * last good release of its upstream.
 */
import type { Figures, TestId, Verdict, VerdictReachField } from '../model/index.js';

/** A verdict as a check stores it: analysis's verdict, whole. */
export type VerdictInput = Verdict;

/** Verdicts stored before migration 6 have no interval or detectable drop: those fields are null. */
export type VerdictRecord = Omit<Verdict, VerdictReachField> & { [K in VerdictReachField]: Verdict[K] | null } & { sessionId: number };

/** The outcome of a whole check: regression when any test regressed, ok otherwise (see docs/verdicts.md). */
export type CheckOutcome = 'ok' | 'regression';

export interface MessageInput {
  /** Unique per event and kind: a message with a key already in the outbox is never queued twice. */
  eventKey: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

export interface CheckInput {
  sessionId: number;
  releaseId: number;
  baselineReleaseId: number;
  outcome: CheckOutcome;
  /**
   * False when a test dropped under its threshold without the drop being significant (verdict unstable): the
   * release may be slower, so it does not become last good on this check.
   */
  conclusive: boolean;
  verdicts: VerdictInput[];
  /** Tests that regressed with no open event for them in the upstream: each opens one. */
  openEvents: Array<{ test: string; threads: number; relativeQps: number }>;
  /** Open events this check shows recovered: closed as fixed by this release. */
  fixedEventIds: number[];
  messages: MessageInput[];
}

export interface CheckRecord {
  sessionId: number;
  releaseId: number;
  baselineReleaseId: number;
  outcome: CheckOutcome;
  conclusive: boolean;
  /** Set by `qpswatch invalid`: the check never counts for last good. */
  invalid: boolean;
  judgedAt: string;
}

export const eventStates = ['open', 'fixed', 'accepted', 'invalid'] as const;
export type EventState = (typeof eventStates)[number];

/** One test of one upstream that regressed, from the release where it started until it is closed. */
export interface EventRecord {
  id: number;
  upstream: string;
  test: string;
  threads: number;
  releaseId: number;
  baselineReleaseId: number;
  sessionId: number;
  relativeQps: number;
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
}

export interface OutboxRecord extends MessageInput {
  id: number;
  state: 'pending' | 'sent';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  /** The SMTP server's answer, or the .eml file written. */
  detail: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** QPS and host resources per operation of one test run (or of a version, for imported rows). */
export type ResultFigures = TestId & Figures;

/** One row of results brought in from elsewhere (an earlier study, another store). */
export interface ImportedResultInput extends ResultFigures {
  flavor: string;
  version: string;
  versionKey: string;
}

export interface ImportedResultRecord extends ImportedResultInput {
  id: number;
  /** The file it came from. */
  source: string;
  importedAt: string;
}

/** One sample of a done session in which one side was a release, with that release: the stuff of history. */
export interface ReleaseSampleRecord extends ResultFigures {
  sessionId: number;
  hostId: number;
  releaseId: number;
}

export interface RerunRecord {
  releaseId: number;
  reason: string;
  requestedAt: string;
}
