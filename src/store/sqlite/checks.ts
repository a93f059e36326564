import { isConclusive, type HintFigure, type VerdictKind } from '../../model/index.js';
import { EventNotOpenError, ReleaseNotFoundError, SessionNotFoundError, SessionStateError } from '../errors.js';
import type {
  CheckInput,
  CheckOutcome,
  CheckRecord,
  CheckStore,
  EventQuery,
  EventRecord,
  EventKind,
  EventState,
  RerunRecord,
  TriageAction,
  TriageInput,
  TriageRecord,
  TriageResult,
  VerdictRecord,
} from '../check-types.js';
import { parseCheckInput, parseTriageInput } from '../validate-checks.js';
import { checkId } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';
import { messageQueuer } from './outbox.js';
import { SqliteInstructionChecks } from './instruction-events.js';
import type { InstructionEventRecord, InstructionVerdictRecord } from '../instruction-types.js';

interface CheckRow {
  session_id: number;
  release_id: number;
  baseline_release_id: number;
  outcome: CheckOutcome;
  conclusive: number;
  invalid: number;
  judged_at: string;
}

interface VerdictRow {
  session_id: number;
  test: string;
  threads: number;
  kind: VerdictKind;
  relative_qps: number;
  threshold: number;
  p_slower: number;
  p_faster: number;
  baseline_spread: number;
  low: number | null;
  high: number | null;
  confidence: number | null;
  detectable_drop: number | null;
  pairs: number | null;
  noise: number | null;
  order_effect: number | null;
  log_se: number | null;
  log_se_df: number | null;
  hint: string;
}

interface EventRow {
  id: number;
  upstream: string;
  test: string;
  threads: number;
  release_id: number;
  baseline_release_id: number;
  session_id: number;
  relative_qps: number;
  kind: EventKind;
  state: EventState;
  acked: number;
  opened_at: string;
  closed_at: string | null;
  closed_by_release_id: number | null;
}

const checkFromRow = (r: CheckRow): CheckRecord => ({
  sessionId: r.session_id,
  releaseId: r.release_id,
  baselineReleaseId: r.baseline_release_id,
  outcome: r.outcome,
  conclusive: r.conclusive !== 0,
  invalid: r.invalid !== 0,
  judgedAt: r.judged_at,
});

const verdictFromRow = (r: VerdictRow): VerdictRecord => ({
  sessionId: r.session_id,
  test: r.test,
  threads: r.threads,
  kind: r.kind,
  relativeQps: r.relative_qps,
  threshold: r.threshold,
  pSlower: r.p_slower,
  pFaster: r.p_faster,
  baselineSpread: r.baseline_spread,
  low: r.low,
  high: r.high,
  confidence: r.confidence,
  detectableDrop: r.detectable_drop,
  pairs: r.pairs,
  noise: r.noise,
  orderEffect: r.order_effect,
  logSe: r.log_se,
  logSeDf: r.log_se_df,
  hint: JSON.parse(r.hint) as HintFigure[],
});

export const eventFromRow = (r: EventRow): EventRecord => ({
  id: r.id,
  upstream: r.upstream,
  test: r.test,
  threads: r.threads,
  releaseId: r.release_id,
  baselineReleaseId: r.baseline_release_id,
  sessionId: r.session_id,
  relativeQps: r.relative_qps,
  kind: r.kind,
  state: r.state,
  acked: r.acked !== 0,
  openedAt: r.opened_at,
  closedAt: r.closed_at,
  closedByReleaseId: r.closed_by_release_id,
});

/** A triage row read with its record's names: the columns and the fields differ only in release_id. */
const TRIAGE_FIELDS = 'id, release_id AS releaseId, action, test, threads, who, reason, at';

/** Checks, verdicts, regression events, triage and reruns of the SQLite backend. */
export class SqliteChecks extends SqliteRole implements CheckStore {
  readonly #queueMessage = messageQueuer(this.connection);
  readonly #instructions = new SqliteInstructionChecks(this.connection);
  readonly #sql = this.statements({
    sessionState: 'SELECT state FROM sessions WHERE id = ?',
    release: 'SELECT id, upstream, version_key FROM releases WHERE id = ?',
    insertCheck: `INSERT INTO checks (session_id, release_id, baseline_release_id, outcome, conclusive, judged_at)
      VALUES (@sessionId, @releaseId, @baselineReleaseId, @outcome, @conclusive, @at) RETURNING *`,
    insertVerdict: `INSERT INTO verdicts (session_id, test, threads, kind, relative_qps, threshold, p_slower, p_faster,
      baseline_spread,
        low, high, confidence, detectable_drop, pairs, noise, order_effect, log_se, log_se_df, hint)
      VALUES (@sessionId, @test, @threads, @kind, @relativeQps, @threshold, @pSlower, @pFaster, @baselineSpread,
        @low, @high, @confidence, @detectableDrop, @pairs, @noise, @orderEffect, @logSe, @logSeDf, @hint)`,
    openEvent: `INSERT INTO regression_events (upstream, test, threads, release_id, baseline_release_id, session_id,
      relative_qps, kind, state, opened_at)
      VALUES (@upstream, @test, @threads, @releaseId, @baselineReleaseId, @sessionId, @relativeQps, @kind, 'open',
        @at)`,
    closeEvent: `UPDATE regression_events SET state = @state, closed_at = @at, closed_by_release_id = @closedBy
      WHERE id = @id AND state = 'open' RETURNING *`,
    ackEvent: `UPDATE regression_events SET acked = 1 WHERE id = ? RETURNING *`,
    eventById: 'SELECT * FROM regression_events WHERE id = ?',
    events:
      `SELECT * FROM regression_events WHERE (@upstream IS NULL OR upstream = ` +
      `@upstream) AND (@state IS NULL OR state = @state) ORDER BY id`,
    checks: `SELECT c.* FROM checks c JOIN releases r ON r.id = c.release_id
      WHERE (@upstream IS NULL OR r.upstream = @upstream) ORDER BY c.session_id`,
    checkOf: 'SELECT * FROM checks WHERE session_id = ?',
    verdicts: 'SELECT * FROM verdicts WHERE session_id = ? ORDER BY rowid',
    insertTriage: `INSERT INTO triage (release_id, action, test, threads, who, reason, at)
      VALUES (@releaseId, @action, @test, @threads, @who, @reason, @at) RETURNING ${TRIAGE_FIELDS}`,
    triageOf: `SELECT ${TRIAGE_FIELDS} FROM triage WHERE (@releaseId IS NULL OR release_id = @releaseId) ORDER BY id`,
    // Accepting a release as the new normal closes what was still open up to it in its upstream.
    openUpTo: `SELECT e.* FROM regression_events e JOIN releases r ON r.id = e.release_id
      WHERE e.state = 'open' AND e.upstream = @upstream AND r.version_key <= @versionKey ORDER BY e.id`,
    openOfRelease: `SELECT * FROM regression_events WHERE state = 'open' AND release_id = @releaseId
      AND (@test IS NULL OR test = @test) AND (@threads IS NULL OR threads = @threads) ORDER BY id`,
    invalidateChecks: 'UPDATE checks SET invalid = 1 WHERE release_id = ? AND invalid = 0',
    openedByRelease: `SELECT * FROM regression_events WHERE state = 'open' AND release_id = ? ORDER BY id`,
    upsertRerun: `INSERT INTO reruns (release_id, reason, requested_at) VALUES (?, ?, ?)
      ON CONFLICT (release_id) DO UPDATE SET reason = excluded.reason, requested_at = excluded.requested_at`,
    deleteRerun: 'DELETE FROM reruns WHERE release_id = ?',
    reruns: 'SELECT * FROM reruns ORDER BY requested_at, release_id',
  });

  async recordCheck(input: CheckInput): Promise<CheckRecord> {
    const check = parseCheckInput(input);
    return this.write('record a check', () => this.#record(check, nowIso()));
  }

  async listChecks(upstream?: string): Promise<CheckRecord[]> {
    return this.read('list checks', () =>
      (this.#sql.checks.all({ upstream: upstream ?? null }) as CheckRow[]).map(checkFromRow),
    );
  }

  async getCheck(sessionId: number): Promise<CheckRecord | undefined> {
    checkId('check', 'sessionId', sessionId);
    return this.read('read a check', () => {
      const row = this.#sql.checkOf.get(sessionId) as CheckRow | undefined;
      return row && checkFromRow(row);
    });
  }

  async verdictsOfSession(sessionId: number): Promise<VerdictRecord[]> {
    checkId('check', 'sessionId', sessionId);
    return this.read('read verdicts', () => (this.#sql.verdicts.all(sessionId) as VerdictRow[]).map(verdictFromRow));
  }

  async listEvents(query: EventQuery): Promise<EventRecord[]> {
    return this.read('list regression events', () =>
      (this.#sql.events.all({ upstream: query.upstream ?? null, state: query.state ?? null }) as EventRow[]).map(
        eventFromRow,
      ),
    );
  }

  async instructionVerdictsOfSession(sessionId: number): Promise<InstructionVerdictRecord[]> {
    checkId('check', 'sessionId', sessionId);
    return this.read('read instruction verdicts', () => this.#instructions.verdicts(sessionId));
  }

  async listInstructionEvents(query: EventQuery): Promise<InstructionEventRecord[]> {
    return this.read('list instructions events', () => this.#instructions.events(query));
  }

  async triage(input: TriageInput): Promise<TriageResult> {
    const triage = parseTriageInput(input);
    return this.write(`record ${triage.action}`, () => this.#judge(triage, nowIso()));
  }

  async listTriage(releaseId?: number): Promise<TriageRecord[]> {
    if (releaseId !== undefined) checkId('triage', 'releaseId', releaseId);
    return this.read('list triage', () => this.#sql.triageOf.all({ releaseId: releaseId ?? null }) as TriageRecord[]);
  }

  async listReruns(): Promise<RerunRecord[]> {
    return this.read('list reruns', () =>
      (this.#sql.reruns.all() as Array<{ release_id: number; reason: string; requested_at: string }>).map((r) => ({
        releaseId: r.release_id,
        reason: r.reason,
        requestedAt: r.requested_at,
      })),
    );
  }

  /**
   * Records a judged session as a check of its release, with its verdicts, the events it opens and closes, and its
   * messages, all or nothing. A rerun request for the release is satisfied by it.
   */
  #record(input: CheckInput, at: string): CheckRecord {
    const release = this.#release(input.releaseId);
    this.#release(input.baselineReleaseId);
    const state = (this.#sql.sessionState.get(input.sessionId) as { state: string } | undefined)?.state;
    if (state === undefined) throw new SessionNotFoundError(input.sessionId);
    if (state !== 'done') throw new SessionStateError(input.sessionId, state as 'running', 'record a check of');
    const kinds = input.verdicts.map((v) => v.kind);
    const conclusive = isConclusive(
      kinds,
      input.instructions?.verdicts.map((v) => v.kind),
    )
      ? 1
      : 0;
    const check = checkFromRow(this.#sql.insertCheck.get({ ...input, conclusive, at }) as CheckRow);
    for (const v of input.verdicts)
      this.#sql.insertVerdict.run({
        sessionId: input.sessionId,
        ...v,
        orderEffect: v.orderEffect ?? null,
        logSe: v.logSe ?? null,
        logSeDf: v.logSeDf ?? null,
        hint: JSON.stringify(v.hint),
      });
    for (const e of input.openEvents) {
      this.#sql.openEvent.run({
        upstream: release.upstream,
        ...e,
        kind: input.eventKind ?? 'regression',
        releaseId: input.releaseId,
        baselineReleaseId: input.baselineReleaseId,
        sessionId: input.sessionId,
        at,
      });
    }
    for (const id of input.fixedEventIds) {
      const closed = this.#sql.closeEvent.get({ id, state: 'fixed', at, closedBy: input.releaseId }) as
        EventRow | undefined;
      if (closed === undefined) throw new EventNotOpenError(id);
      this.#triage(
        {
          releaseId: input.releaseId,
          action: 'fixed',
          test: { test: closed.test, threads: closed.threads },
          who: 'qpswatch',
          reason: `recovered in session ${input.sessionId}`,
        },
        at,
      );
    }
    if (input.instructions !== undefined)
      this.#instructions.record(
        input.instructions,
        { sessionId: input.sessionId, releaseId: input.releaseId, upstream: release.upstream, at },
        (e) =>
          this.#triage(
            {
              releaseId: input.releaseId,
              action: 'fixed',
              test: { test: e.test, threads: e.threads },
              who: 'qpswatch',
              reason: `instructions per query recovered in session ${input.sessionId}`,
            },
            at,
          ),
      );
    for (const m of input.messages) this.#queueMessage(m, at);
    this.#sql.deleteRerun.run(input.releaseId);
    return check;
  }

  /** A person's word on a release, with its effect on events and checks, in one step. */
  #judge(input: TriageInput, at: string): TriageResult {
    const release = this.#release(input.releaseId);
    const triage = this.#triage(input, at);
    if (input.action === 'ack') {
      const open = this.#sql.openOfRelease.all({
        releaseId: input.releaseId,
        test: input.test?.test ?? null,
        threads: input.test?.threads ?? null,
      }) as EventRow[];
      return {
        triage,
        events: open.map((e) => eventFromRow(this.#sql.ackEvent.get(e.id) as EventRow)),
        invalidatedChecks: 0,
        instructionEvents: this.#instructions.ack(input.releaseId, input.test),
      };
    }
    if (input.action === 'accept') {
      const open = this.#sql.openUpTo.all({
        upstream: release.upstream,
        versionKey: release.version_key,
      }) as EventRow[];
      return {
        triage,
        events: open.map((e) => this.#close(e.id, 'accepted', input.releaseId, at)),
        invalidatedChecks: 0,
        instructionEvents: this.#instructions.accept(release.upstream, release.version_key, input.releaseId, at),
      };
    }
    const invalidated = this.#sql.invalidateChecks.run(input.releaseId).changes;
    const open = this.#sql.openedByRelease.all(input.releaseId) as EventRow[];
    this.#sql.upsertRerun.run(input.releaseId, input.reason, at);
    return {
      triage,
      events: open.map((e) => this.#close(e.id, 'invalid', input.releaseId, at)),
      invalidatedChecks: invalidated,
      instructionEvents: this.#instructions.invalidate(input.releaseId, at),
    };
  }

  #triage(input: Omit<TriageInput, 'action'> & { action: TriageAction }, at: string): TriageRecord {
    return this.#sql.insertTriage.get({
      releaseId: input.releaseId,
      action: input.action,
      test: input.test?.test ?? null,
      threads: input.test?.threads ?? null,
      who: input.who,
      reason: input.reason,
      at,
    }) as TriageRecord;
  }

  #close(id: number, state: Exclude<EventState, 'open'>, closedBy: number, at: string): EventRecord {
    return eventFromRow(this.#sql.closeEvent.get({ id, state, at, closedBy }) as EventRow);
  }

  #release(id: number): { id: number; upstream: string; version_key: string } {
    const row = this.#sql.release.get(id) as { id: number; upstream: string; version_key: string } | undefined;
    if (row === undefined) throw new ReleaseNotFoundError(String(id));
    return row;
  }
}
