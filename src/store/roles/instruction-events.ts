import type { InstructionSide } from '../../model/index.js';
import { EventAlreadyOpenError, EventNotOpenError } from '../errors.js';
import type { EventQuery } from '../check-types.js';
import type { InstructionCheckInput, InstructionEventRecord, InstructionVerdictRecord } from '../instruction-types.js';
import type { SqlDialect, SqlTx } from '../sql.js';

interface EventRow {
  id: number;
  upstream: string;
  test: string;
  threads: number;
  release_id: number;
  baseline_release_id: number;
  session_id: number;
  ratio: number;
  kind: InstructionEventRecord['kind'];
  state: InstructionEventRecord['state'];
  acked: number;
  opened_at: string;
  closed_at: string | null;
  closed_by_release_id: number | null;
}

interface VerdictRow {
  session_id: number;
  test: string;
  threads: number;
  kind: InstructionVerdictRecord['kind'];
  ratio: number;
  low: number;
  high: number;
  threshold: number;
  baseline: string;
  candidate: string;
}

/** Where a check's instructions events belong and when it was recorded. */
export interface InstructionCheckContext {
  sessionId: number;
  releaseId: number;
  upstream: string;
  at: string;
}

/**
 * The instructions lane's part of checks and triage (instruction_verdicts, instruction_events), run inside the write
 * transactions of Checks (checks.ts), so a check and its consequences stay all or nothing.
 */
export async function recordInstructionCheck(
  tx: SqlTx,
  dialect: SqlDialect,
  input: InstructionCheckInput,
  ctx: InstructionCheckContext,
  fixed: (event: InstructionEventRecord) => Promise<void>,
): Promise<void> {
  for (const v of input.verdicts)
    await tx.run(
      `INSERT INTO instruction_verdicts (session_id, test, threads, kind, ratio, low, high, threshold, baseline,
          candidate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        ctx.sessionId,
        v.test,
        v.threads,
        v.kind,
        v.ratio,
        v.low,
        v.high,
        v.threshold,
        JSON.stringify(v.baseline),
        JSON.stringify(v.candidate),
      ],
    );
  // Fixed first: an event this check closes frees its test for one this check opens.
  for (const id of input.fixedEventIds) {
    const closed = await closeIfOpen(tx, id, 'fixed', ctx.releaseId, ctx.at);
    if (closed === undefined) throw new EventNotOpenError(id);
    await fixed(closed);
  }
  // One open event per upstream and test: one open already (another host's check, recorded since this check read
  // the events) is refused by name, so the check can plan again; the schema's unique index stands behind it.
  for (const e of input.openEvents) {
    const already = await tx.row(
      `SELECT id FROM instruction_events WHERE state = 'open' AND upstream = ? AND test = ? AND threads = ?` +
        dialect.lockRows,
      [ctx.upstream, e.test, e.threads],
    );
    if (already !== undefined) throw new EventAlreadyOpenError(ctx.upstream, e.test, e.threads);
    await tx.run(
      `INSERT INTO instruction_events (upstream, test, threads, release_id, baseline_release_id, session_id, ratio,
          kind, state, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
      [ctx.upstream, e.test, e.threads, ctx.releaseId, e.baselineReleaseId, ctx.sessionId, e.ratio, e.kind, ctx.at],
    );
  }
}

/** In the order they were written. */
export async function instructionVerdicts(
  tx: SqlTx,
  dialect: SqlDialect,
  sessionId: number,
): Promise<InstructionVerdictRecord[]> {
  const rows = await tx.rows<VerdictRow>(
    `SELECT * FROM instruction_verdicts WHERE session_id = ? ORDER BY ${dialect.writtenOrder}`,
    [sessionId],
  );
  return rows.map((r) => ({
    sessionId: r.session_id,
    test: r.test,
    threads: r.threads,
    kind: r.kind,
    ratio: r.ratio,
    low: r.low,
    high: r.high,
    threshold: r.threshold,
    baseline: JSON.parse(r.baseline) as InstructionSide,
    candidate: JSON.parse(r.candidate) as InstructionSide,
  }));
}

export async function instructionEvents(tx: SqlTx, query: EventQuery): Promise<InstructionEventRecord[]> {
  const upstream = query.upstream ?? null;
  const state = query.state ?? null;
  const rows = await tx.rows<EventRow>(
    `SELECT * FROM instruction_events WHERE (? IS NULL OR upstream = ?) AND (? IS NULL OR state = ?) ORDER BY id`,
    [upstream, upstream, state, state],
  );
  return rows.map(eventFromRow);
}

/** ack: the release's open events (or one test's) are acknowledged. */
export async function ackInstructionEvents(
  tx: SqlTx,
  dialect: SqlDialect,
  releaseId: number,
  test: { test: string; threads?: number } | undefined,
): Promise<InstructionEventRecord[]> {
  const name = test?.test ?? null;
  const threads = test?.threads ?? null;
  const open = await tx.rows<EventRow>(
    `SELECT * FROM instruction_events WHERE state = 'open' AND release_id = ?
      AND (? IS NULL OR test = ?) AND (? IS NULL OR threads = ?) ORDER BY id${dialect.lockRows}`,
    [releaseId, name, name, threads, threads],
  );
  const acked: InstructionEventRecord[] = [];
  for (const e of open) {
    await tx.run('UPDATE instruction_events SET acked = 1 WHERE id = ?', [e.id]);
    acked.push(eventFromRow({ ...e, acked: 1 }));
  }
  return acked;
}

/** accept: what is open in the upstream up to the release (by version) is closed as accepted. */
export async function acceptInstructionEvents(
  tx: SqlTx,
  dialect: SqlDialect,
  release: { id: number; upstream: string; version_key: string },
  at: string,
): Promise<InstructionEventRecord[]> {
  const open = await tx.rows<EventRow>(
    `SELECT e.* FROM instruction_events e JOIN releases r ON r.id = e.release_id
      WHERE e.state = 'open' AND e.upstream = ? AND r.version_key <= ? ORDER BY e.id${dialect.lockRows}`,
    [release.upstream, release.version_key],
  );
  return closeAll(tx, open, 'accepted', release.id, at);
}

/** invalid: the events the release's checks opened are closed as invalid. */
export async function invalidateInstructionEvents(
  tx: SqlTx,
  dialect: SqlDialect,
  releaseId: number,
  at: string,
): Promise<InstructionEventRecord[]> {
  const open = await tx.rows<EventRow>(
    `SELECT * FROM instruction_events WHERE state = 'open' AND release_id = ? ORDER BY id${dialect.lockRows}`,
    [releaseId],
  );
  return closeAll(tx, open, 'invalid', releaseId, at);
}

async function closeAll(
  tx: SqlTx,
  open: readonly EventRow[],
  state: 'accepted' | 'invalid',
  closedBy: number,
  at: string,
): Promise<InstructionEventRecord[]> {
  const closed: InstructionEventRecord[] = [];
  for (const e of open) closed.push((await closeIfOpen(tx, e.id, state, closedBy, at))!);
  return closed;
}

async function closeIfOpen(
  tx: SqlTx,
  id: number,
  state: 'fixed' | 'accepted' | 'invalid',
  closedBy: number,
  at: string,
): Promise<InstructionEventRecord | undefined> {
  const { affectedRows } = await tx.run(
    `UPDATE instruction_events SET state = ?, closed_at = ?, closed_by_release_id = ? WHERE id = ? AND state = 'open'`,
    [state, at, closedBy, id],
  );
  if (affectedRows === 0) return undefined;
  const row = await tx.row<EventRow>('SELECT * FROM instruction_events WHERE id = ?', [id]);
  return row === undefined ? undefined : eventFromRow(row);
}

function eventFromRow(r: EventRow): InstructionEventRecord {
  return {
    id: r.id,
    upstream: r.upstream,
    test: r.test,
    threads: r.threads,
    releaseId: r.release_id,
    baselineReleaseId: r.baseline_release_id,
    sessionId: r.session_id,
    ratio: r.ratio,
    kind: r.kind,
    state: r.state,
    acked: Number(r.acked) !== 0,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
    closedByReleaseId: r.closed_by_release_id,
  };
}
