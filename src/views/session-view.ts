import { compareSession, type VerdictSettings } from '../analysis/index.js';
import { InputError } from '../errors.js';
import type { ComparisonView, Verdict } from '../model/index.js';
import type { HostFingerprint } from '../sampling/index.js';
import type {
  CheckStore,
  HostStore,
  SampleRecord,
  SampleStore,
  SessionRecord,
  SessionSideStore,
  SessionStore,
  VerdictRecord,
} from '../store/index.js';
import { hostSummary, judgeStored, sideDifferences, type SessionPlan } from '../session/index.js';

/** A session id the store does not hold. */
export class UnknownSessionError extends InputError {
  constructor(readonly sessionId: number) {
    super(`no session ${sessionId} in the store: \`qpswatch sessions\` lists the ones there are`);
  }
}

/**
 * Where a session's verdicts come from: the check that judged it (stored with it, what alerts and status used), the
 * samples judged again as `compare` judged them, or none (a session that did not finish is never judged).
 */
export type SessionJudgement = 'check' | 'samples' | 'none';

export interface SessionVerdicts {
  judged: SessionJudgement;
  verdicts: Verdict[];
}

export interface StoredSessionView extends SessionVerdicts {
  session: SessionRecord;
  /** What `compare` printed at the end, for a done session; a session that did not finish: its samples, not judged. */
  view: ComparisonView;
}

/** The sessions, their host, their samples and the checks that judged them. */
export type SessionViewStores = SessionStore & SampleStore & HostStore & CheckStore & SessionSideStore;

/**
 * One session again, from the store alone: the same comparison `compare` builds at its end (analysis.compareSession
 * with the verdicts of judgeStored). A session that failed, was interrupted or still runs shows every sample it
 * stored, unjudged.
 */
export async function storedSessionView(
  store: SessionViewStores,
  sessionId: number,
  fallback: VerdictSettings,
): Promise<StoredSessionView> {
  const session = await store.getSession(sessionId);
  if (session === undefined) throw new UnknownSessionError(sessionId);
  const samples =
    session.state === 'done' ? await store.completedSamples(sessionId) : await store.samplesForSession(sessionId);
  const judged = await sessionVerdicts(store, session, fallback, () => Promise.resolve(samples));
  const host = await store.getHost(session.hostId);
  // The fingerprint is the one compare stored for this host (HostFingerprint, as JSON).
  const facts = host === undefined ? {} : hostSummary(host.fingerprint as unknown as HostFingerprint);
  const sides = await sideDifferences(store, sessionId);
  return { session, view: { ...compareSession(session, samples, facts, judged.verdicts), ...sides }, ...judged };
}

/**
 * A done session's verdicts: its check's when a check judged it, else its samples judged again by its design and the
 * verdict settings it ran with (sessions recorded before those were kept: `fallback`, the config's).
 */
export async function sessionVerdicts(
  store: CheckStore,
  session: SessionRecord,
  fallback: VerdictSettings,
  samples: () => Promise<SampleRecord[]>,
): Promise<SessionVerdicts> {
  if (session.state !== 'done') return { judged: 'none', verdicts: [] };
  if ((await store.getCheck(session.id)) !== undefined) {
    const stored = (await store.verdictsOfSession(session.id)).map(wholeVerdict);
    // Verdicts stored before intervals existed lack them: those sessions are judged again like a plain compare.
    if (stored.every((v): v is Verdict => v !== undefined)) return { judged: 'check', verdicts: stored };
  }
  return { judged: 'samples', verdicts: judgeStored(storedPlan(session, fallback), await samples()) };
}

/**
 * The design and verdict settings a session recorded (sessions.settings); sessions before the paired design ran whole
 * runs.
 */
export function storedPlan(
  session: SessionRecord,
  fallback: VerdictSettings,
): Pick<SessionPlan, 'design' | 'verdicts'> {
  return {
    design: session.settings['design'] === 'paired' ? 'paired' : 'runs',
    verdicts: storedVerdictSettings(session.settings['verdicts']) ?? fallback,
  };
}

function storedVerdictSettings(value: unknown): VerdictSettings | undefined {
  if (!isObject(value)) return undefined;
  const { threshold, alpha, confidence, testThresholds, maxPairs, plannedBlocks, instanceSeconds } = value;
  if (typeof threshold !== 'number' || typeof alpha !== 'number' || !isObject(testThresholds)) return undefined;
  // Each optional setting a number when present: the looks and blocks a session was judged by are judged again.
  for (const n of [confidence, maxPairs, plannedBlocks, instanceSeconds])
    if (n !== undefined && typeof n !== 'number') return undefined;
  const perTest = Object.entries(testThresholds);
  if (!perTest.every(([, t]) => typeof t === 'number')) return undefined;
  return {
    threshold,
    alpha,
    testThresholds: Object.fromEntries(perTest) as Record<string, number>,
    ...(typeof confidence === 'number' ? { confidence } : {}),
    ...(typeof maxPairs === 'number' ? { maxPairs } : {}),
    ...(typeof plannedBlocks === 'number' ? { plannedBlocks } : {}),
    ...(typeof instanceSeconds === 'number' ? { instanceSeconds } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeVerdict(record: VerdictRecord): Verdict | undefined {
  const { sessionId: _sessionId, ...verdict } = record;
  const { low, confidence, detectableDrop, pairs } = verdict;
  if (low === null || confidence === null || detectableDrop === null || pairs === null) return undefined;
  return { ...verdict, low, confidence, detectableDrop, pairs };
}
