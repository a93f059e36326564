import { isConclusive, type HintFigure, type VerdictKind } from '../../model/index.js';
import {
  EventAlreadyOpenError,
  EventNotOpenError,
  ReleaseNotFoundError,
  SessionNotFoundError,
  SessionStateError,
} from '../errors.js';
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
import type { SessionState } from '../session-types.js';
import { parseCheckInput, parseTriageInput } from '../validate-checks.js';
import { checkId } from '../validate.js';
import { nowIso, SqlRole, type SqlTx } from '../sql.js';
import { queueMessage } from './outbox.js';
import {
  acceptInstructionEvents,
  ackInstructionEvents,
  instructionEvents,
  instructionVerdicts,
  invalidateInstructionEvents,
  recordInstructionCheck,
} from './instruction-events.js';
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

interface ReleaseRow {
  id: number;
  upstream: string;
  version_key: string;
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
const TRIAGE_FIELDS = 'id, release_id AS releaseId, action, test, threads, who, reason, `at`';

const VERDICT_COLUMNS =
  'session_id, test, threads, kind, relative_qps, threshold, p_slower, p_faster, baseline_spread, ' +
  'low, high, confidence, detectable_drop, pairs, noise, order_effect, log_se, log_se_df, hint';

/**
 * Checks, verdicts, regression events, triage and reruns. Writes take their turn (sql.ts); the events a write closes
 * are also read with the dialect's row lock (MySQL's FOR UPDATE), so that closing them stays safe on its own if the
 * turns are ever narrowed.
 */
export class Checks extends SqlRole implements CheckStore {
  async recordCheck(input: CheckInput): Promise<CheckRecord> {
    const check = parseCheckInput(input);
    return this.write('record a check', (tx) => this.#record(tx, check, nowIso()));
  }

  async listChecks(upstream?: string): Promise<CheckRecord[]> {
    const up = upstream ?? null;
    return this.read('list checks', async (tx) =>
      (
        await tx.rows<CheckRow>(
          `SELECT c.* FROM checks c JOIN releases r ON r.id = c.release_id
            WHERE (? IS NULL OR r.upstream = ?) ORDER BY c.session_id`,
          [up, up],
        )
      ).map(checkFromRow),
    );
  }

  async getCheck(sessionId: number): Promise<CheckRecord | undefined> {
    checkId('check', 'sessionId', sessionId);
    return this.read('read a check', async (tx) => {
      const row = await tx.row<CheckRow>('SELECT * FROM checks WHERE session_id = ?', [sessionId]);
      return row && checkFromRow(row);
    });
  }

  /** In the order they were written. */
  async verdictsOfSession(sessionId: number): Promise<VerdictRecord[]> {
    checkId('check', 'sessionId', sessionId);
    const sql = `SELECT * FROM verdicts WHERE session_id = ? ORDER BY ${this.dialect.writtenOrder}`;
    return this.read('read verdicts', async (tx) => (await tx.rows<VerdictRow>(sql, [sessionId])).map(verdictFromRow));
  }

  async listEvents(query: EventQuery): Promise<EventRecord[]> {
    const upstream = query.upstream ?? null;
    const state = query.state ?? null;
    return this.read('list regression events', async (tx) =>
      (
        await tx.rows<EventRow>(
          `SELECT * FROM regression_events WHERE (? IS NULL OR upstream = ?) AND (? IS NULL OR state = ?) ORDER BY id`,
          [upstream, upstream, state, state],
        )
      ).map(eventFromRow),
    );
  }

  async instructionVerdictsOfSession(sessionId: number): Promise<InstructionVerdictRecord[]> {
    checkId('check', 'sessionId', sessionId);
    return this.read('read instruction verdicts', (tx) => instructionVerdicts(tx, this.dialect, sessionId));
  }

  async listInstructionEvents(query: EventQuery): Promise<InstructionEventRecord[]> {
    return this.read('list instructions events', (tx) => instructionEvents(tx, query));
  }

  async triage(input: TriageInput): Promise<TriageResult> {
    const triage = parseTriageInput(input);
    return this.write(`record ${triage.action}`, (tx) => this.#judge(tx, triage, nowIso()));
  }

  async listTriage(releaseId?: number): Promise<TriageRecord[]> {
    if (releaseId !== undefined) checkId('triage', 'releaseId', releaseId);
    const id = releaseId ?? null;
    return this.read('list triage', (tx) =>
      tx.rows<TriageRecord>(`SELECT ${TRIAGE_FIELDS} FROM triage WHERE (? IS NULL OR release_id = ?) ORDER BY id`, [
        id,
        id,
      ]),
    );
  }

  async listReruns(): Promise<RerunRecord[]> {
    return this.read('list reruns', async (tx) =>
      (
        await tx.rows<{ release_id: number; reason: string; requested_at: string }>(
          'SELECT * FROM reruns ORDER BY requested_at, release_id',
        )
      ).map((r) => ({ releaseId: r.release_id, reason: r.reason, requestedAt: r.requested_at })),
    );
  }

  /**
   * Records a judged session as a check of its release, with its verdicts, the events it opens and closes, and its
   * messages, all or nothing. A rerun request for the release is satisfied by it.
   */
  async #record(tx: SqlTx, input: CheckInput, at: string): Promise<CheckRecord> {
    const release = await this.#release(tx, input.releaseId);
    await this.#release(tx, input.baselineReleaseId);
    const state = (await tx.row<{ state: SessionState }>('SELECT state FROM sessions WHERE id = ?', [input.sessionId]))
      ?.state;
    if (state === undefined) throw new SessionNotFoundError(input.sessionId);
    if (state !== 'done') throw new SessionStateError(input.sessionId, state, 'record a check of');
    const kinds = input.verdicts.map((v) => v.kind);
    const conclusive = isConclusive(
      kinds,
      input.instructions?.verdicts.map((v) => v.kind),
    )
      ? 1
      : 0;
    await tx.run(
      `INSERT INTO checks (session_id, release_id, baseline_release_id, outcome, conclusive, judged_at)
        VALUES (?, ?, ?, ?, ?, ?)`,
      [input.sessionId, input.releaseId, input.baselineReleaseId, input.outcome, conclusive, at],
    );
    const check = checkFromRow(
      (await tx.row<CheckRow>('SELECT * FROM checks WHERE session_id = ?', [input.sessionId]))!,
    );
    await this.#insertVerdicts(tx, input);
    await this.#openEvents(tx, input, release.upstream, at);
    await this.#fixEvents(tx, input, at);
    if (input.instructions !== undefined)
      await recordInstructionCheck(
        tx,
        this.dialect,
        input.instructions,
        { sessionId: input.sessionId, releaseId: input.releaseId, upstream: release.upstream, at },
        async (e) => {
          await this.#triage(
            tx,
            {
              releaseId: input.releaseId,
              action: 'fixed',
              test: { test: e.test, threads: e.threads },
              who: 'qpswatch',
              reason: `instructions per query recovered in session ${input.sessionId}`,
            },
            at,
          );
        },
      );
    for (const m of input.messages) await queueMessage(tx, this.dialect, m, at);
    await tx.run('DELETE FROM reruns WHERE release_id = ?', [input.releaseId]);
    return check;
  }

  async #insertVerdicts(tx: SqlTx, input: CheckInput): Promise<void> {
    for (const v of input.verdicts)
      await tx.run(
        `INSERT INTO verdicts (${VERDICT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          input.sessionId,
          v.test,
          v.threads,
          v.kind,
          v.relativeQps,
          v.threshold,
          v.pSlower,
          v.pFaster,
          v.baselineSpread,
          v.low,
          v.high,
          v.confidence,
          v.detectableDrop,
          v.pairs,
          v.noise,
          v.orderEffect ?? null,
          v.logSe ?? null,
          v.logSeDf ?? null,
          JSON.stringify(v.hint),
        ],
      );
  }

  /**
   * One open event per upstream and test: one open already (another host's check, recorded since this check read the
   * events) is refused by name, so the check can plan again; the schema's unique index stands behind it.
   */
  async #openEvents(tx: SqlTx, input: CheckInput, upstream: string, at: string): Promise<void> {
    for (const e of input.openEvents) {
      const already = await tx.row(
        `SELECT id FROM regression_events WHERE state = 'open' AND upstream = ? AND test = ? AND threads = ?` +
          this.dialect.lockRows,
        [upstream, e.test, e.threads],
      );
      if (already !== undefined) throw new EventAlreadyOpenError(upstream, e.test, e.threads);
      await tx.run(
        `INSERT INTO regression_events (upstream, test, threads, release_id, baseline_release_id, session_id,
          relative_qps, kind, state, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
        [
          upstream,
          e.test,
          e.threads,
          input.releaseId,
          input.baselineReleaseId,
          input.sessionId,
          e.relativeQps,
          input.eventKind ?? 'regression',
          at,
        ],
      );
    }
  }

  async #fixEvents(tx: SqlTx, input: CheckInput, at: string): Promise<void> {
    for (const id of input.fixedEventIds) {
      const closed = await this.#closeIfOpen(tx, id, 'fixed', input.releaseId, at);
      if (closed === undefined) throw new EventNotOpenError(id);
      await this.#triage(
        tx,
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
  }

  /** A person's word on a release, with its effect on events and checks, in one step. */
  async #judge(tx: SqlTx, input: TriageInput, at: string): Promise<TriageResult> {
    const release = await this.#release(tx, input.releaseId);
    const triage = await this.#triage(tx, input, at);
    if (input.action === 'ack')
      return {
        triage,
        events: await this.#ack(tx, input),
        invalidatedChecks: 0,
        instructionEvents: await ackInstructionEvents(tx, this.dialect, input.releaseId, input.test),
      };
    if (input.action === 'accept') {
      // Accepting a release as the new normal closes what was still open up to it in its upstream.
      const open = await tx.rows<EventRow>(
        `SELECT e.* FROM regression_events e JOIN releases r ON r.id = e.release_id
          WHERE e.state = 'open' AND e.upstream = ? AND r.version_key <= ? ORDER BY e.id${this.dialect.lockRows}`,
        [release.upstream, release.version_key],
      );
      return {
        triage,
        events: await this.#closeAll(tx, open, 'accepted', input.releaseId, at),
        invalidatedChecks: 0,
        instructionEvents: await acceptInstructionEvents(tx, this.dialect, release, at),
      };
    }
    const invalidated = await tx.run('UPDATE checks SET invalid = 1 WHERE release_id = ? AND invalid = 0', [
      input.releaseId,
    ]);
    const open = await tx.rows<EventRow>(
      `SELECT * FROM regression_events WHERE state = 'open' AND release_id = ? ORDER BY id${this.dialect.lockRows}`,
      [input.releaseId],
    );
    await this.dialect.upsert(tx, {
      table: 'reruns',
      row: { release_id: input.releaseId, reason: input.reason, requested_at: at },
      key: ['release_id'],
      update: ['reason', 'requested_at'],
    });
    return {
      triage,
      events: await this.#closeAll(tx, open, 'invalid', input.releaseId, at),
      invalidatedChecks: invalidated.affectedRows,
      instructionEvents: await invalidateInstructionEvents(tx, this.dialect, input.releaseId, at),
    };
  }

  async #ack(tx: SqlTx, input: TriageInput): Promise<EventRecord[]> {
    const test = input.test?.test ?? null;
    const threads = input.test?.threads ?? null;
    const open = await tx.rows<EventRow>(
      `SELECT * FROM regression_events WHERE state = 'open' AND release_id = ?
        AND (? IS NULL OR test = ?) AND (? IS NULL OR threads = ?) ORDER BY id${this.dialect.lockRows}`,
      [input.releaseId, test, test, threads, threads],
    );
    const acked: EventRecord[] = [];
    for (const e of open) {
      await tx.run('UPDATE regression_events SET acked = 1 WHERE id = ?', [e.id]);
      acked.push(eventFromRow({ ...e, acked: 1 }));
    }
    return acked;
  }

  async #triage(
    tx: SqlTx,
    input: Omit<TriageInput, 'action'> & { action: TriageAction },
    at: string,
  ): Promise<TriageRecord> {
    const { insertId } = await tx.run(
      'INSERT INTO triage (release_id, action, test, threads, who, reason, `at`) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        input.releaseId,
        input.action,
        input.test?.test ?? null,
        input.test?.threads ?? null,
        input.who,
        input.reason,
        at,
      ],
    );
    return (await tx.row<TriageRecord>(`SELECT ${TRIAGE_FIELDS} FROM triage WHERE id = ?`, [insertId]))!;
  }

  /** Events read open in this transaction, under its row lock: each is still open, so each closes. */
  async #closeAll(
    tx: SqlTx,
    open: readonly EventRow[],
    state: Exclude<EventState, 'open'>,
    closedBy: number,
    at: string,
  ): Promise<EventRecord[]> {
    const closed: EventRecord[] = [];
    for (const e of open) closed.push(eventFromRow((await this.#closeIfOpen(tx, e.id, state, closedBy, at))!));
    return closed;
  }

  /** The event as closed, or undefined when it is not open (closed already, or no such event). */
  async #closeIfOpen(
    tx: SqlTx,
    id: number,
    state: Exclude<EventState, 'open'>,
    closedBy: number,
    at: string,
  ): Promise<EventRow | undefined> {
    const { affectedRows } = await tx.run(
      `UPDATE regression_events SET state = ?, closed_at = ?, closed_by_release_id = ? WHERE id = ? AND state = 'open'`,
      [state, at, closedBy, id],
    );
    if (affectedRows === 0) return undefined;
    return tx.row<EventRow>('SELECT * FROM regression_events WHERE id = ?', [id]);
  }

  async #release(tx: SqlTx, id: number): Promise<ReleaseRow> {
    const row = await tx.row<ReleaseRow>('SELECT id, upstream, version_key FROM releases WHERE id = ?', [id]);
    if (row === undefined) throw new ReleaseNotFoundError(String(id));
    return row;
  }
}
