/**
 * What a release check leaves behind: the verdicts of its session, the regression events it opened or closed, the
 * people's triage and the messages waiting to be sent. A check is one session that judged a release against the
 * last good release of its upstream.
 */

export const verdictKinds = ['ok', 'regression', 'improvement', 'unstable'] as const;
export type StoredVerdictKind = (typeof verdictKinds)[number];

export interface VerdictInput {
  test: string;
  threads: number;
  kind: StoredVerdictKind;
  relativeQps: number;
  threshold: number;
  pSlower: number;
  pFaster: number;
  baselineSpread: number;
  /** The interval of relative QPS at `confidence`; null high: one pair has no upper end. */
  low: number;
  high: number | null;
  confidence: number;
  /** The smallest drop (0.05 = 5%) the session would have caught 4 times in 5. */
  detectableDrop: number;
  /** Pairs (paired design) or rounds (whole runs) behind the verdict. */
  pairs: number;
  /** Standard deviation of one pair's log ratio (or one run's log QPS); null for fewer than two pairs. */
  noise: number | null;
  /** The per-op figures that grew, as analysis gave them (plain JSON). */
  hint: object[];
}

/** Verdicts stored before migration 6 have no interval or detectable drop: those fields are null. */
export interface VerdictRecord extends Omit<VerdictInput, 'hint' | VerdictReachField> {
  sessionId: number;
  hint: Record<string, unknown>[];
  low: number | null;
  high: number | null;
  confidence: number | null;
  detectableDrop: number | null;
  pairs: number | null;
  noise: number | null;
}

type VerdictReachField = 'low' | 'high' | 'confidence' | 'detectableDrop' | 'pairs' | 'noise';

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
export interface ResultFigures {
  test: string;
  threads: number;
  qps: number;
  cpuPerOp: number;
  csPerOp: number;
  readsPerOp: number;
  readKBPerOp: number;
  writeKBPerOp: number;
}

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
