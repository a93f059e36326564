import type { InstructionSide } from '../../model/index.js';
import { EventNotOpenError } from '../errors.js';
import type { EventQuery } from '../check-types.js';
import type { InstructionCheckInput, InstructionEventRecord, InstructionVerdictRecord } from '../instruction-types.js';
import type { SqliteConnection } from './connection.js';

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

/** Writes a `fixed` triage row for an event closed by a release (the check's own triage writer). */
export type FixedTriage = (event: InstructionEventRecord) => void;

/**
 * The instructions lane's part of checks and triage (instruction_verdicts, instruction_events), run inside the
 * transactions of SqliteChecks so a check and its consequences stay all or nothing.
 */
export class SqliteInstructionChecks {
  readonly #sql;

  constructor(conn: SqliteConnection) {
    const prepare = (sql: string) => conn.prepare(sql);
    this.#sql = {
      insertVerdict: prepare(`INSERT INTO instruction_verdicts (session_id, test, threads, kind, ratio, low, high,
          threshold, baseline, candidate)
        VALUES (@sessionId, @test, @threads, @kind, @ratio, @low, @high, @threshold, @baseline, @candidate)`),
      verdicts: prepare('SELECT * FROM instruction_verdicts WHERE session_id = ? ORDER BY rowid'),
      open: prepare(`INSERT INTO instruction_events (upstream, test, threads, release_id, baseline_release_id,
          session_id, ratio, kind, state, opened_at)
        VALUES (@upstream, @test, @threads, @releaseId, @baselineReleaseId, @sessionId, @ratio, @kind, 'open', @at)`),
      close: prepare(`UPDATE instruction_events SET state = @state, closed_at = @at, closed_by_release_id = @closedBy
        WHERE id = @id AND state = 'open' RETURNING *`),
      ack: prepare('UPDATE instruction_events SET acked = 1 WHERE id = ? RETURNING *'),
      events: prepare(`SELECT * FROM instruction_events WHERE (@upstream IS NULL OR upstream = @upstream)
        AND (@state IS NULL OR state = @state) ORDER BY id`),
      openUpTo: prepare(`SELECT e.* FROM instruction_events e JOIN releases r ON r.id = e.release_id
        WHERE e.state = 'open' AND e.upstream = @upstream AND r.version_key <= @versionKey ORDER BY e.id`),
      openOfRelease: prepare(`SELECT * FROM instruction_events WHERE state = 'open' AND release_id = @releaseId
        AND (@test IS NULL OR test = @test) AND (@threads IS NULL OR threads = @threads) ORDER BY id`),
    };
  }

  /** A check's verdicts of the lane, the events it closes as fixed (each with its triage row) and the ones it opens. */
  record(input: InstructionCheckInput, ctx: InstructionCheckContext, fixed: FixedTriage): void {
    for (const v of input.verdicts)
      this.#sql.insertVerdict.run({
        sessionId: ctx.sessionId,
        test: v.test,
        threads: v.threads,
        kind: v.kind,
        ratio: v.ratio,
        low: v.low,
        high: v.high,
        threshold: v.threshold,
        baseline: JSON.stringify(v.baseline),
        candidate: JSON.stringify(v.candidate),
      });
    // Fixed first: an event this check closes frees its test for one this check opens (one open per test).
    for (const id of input.fixedEventIds) {
      const row = this.#sql.close.get({ id, state: 'fixed', at: ctx.at, closedBy: ctx.releaseId }) as
        EventRow | undefined;
      if (row === undefined) throw new EventNotOpenError(id);
      fixed(eventFromRow(row));
    }
    for (const e of input.openEvents)
      this.#sql.open.run({
        ...e,
        upstream: ctx.upstream,
        releaseId: ctx.releaseId,
        sessionId: ctx.sessionId,
        at: ctx.at,
      });
  }

  verdicts(sessionId: number): InstructionVerdictRecord[] {
    return (this.#sql.verdicts.all(sessionId) as VerdictRow[]).map((r) => ({
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

  events(query: EventQuery): InstructionEventRecord[] {
    const rows = this.#sql.events.all({ upstream: query.upstream ?? null, state: query.state ?? null }) as EventRow[];
    return rows.map(eventFromRow);
  }

  /** ack: the release's open events (or one test's) are acknowledged. */
  ack(releaseId: number, test: { test: string; threads?: number } | undefined): InstructionEventRecord[] {
    const open = this.#sql.openOfRelease.all({
      releaseId,
      test: test?.test ?? null,
      threads: test?.threads ?? null,
    }) as EventRow[];
    return open.map((e) => eventFromRow(this.#sql.ack.get(e.id) as EventRow));
  }

  /** accept: what is open in the upstream up to the release is closed as accepted. */
  accept(upstream: string, versionKey: string, releaseId: number, at: string): InstructionEventRecord[] {
    const open = this.#sql.openUpTo.all({ upstream, versionKey }) as EventRow[];
    return open.map((e) => this.#close(e.id, 'accepted', releaseId, at));
  }

  /** invalid: the events the release's checks opened are closed as invalid. */
  invalidate(releaseId: number, at: string): InstructionEventRecord[] {
    const open = this.#sql.openOfRelease.all({ releaseId, test: null, threads: null }) as EventRow[];
    return open.map((e) => this.#close(e.id, 'invalid', releaseId, at));
  }

  #close(id: number, state: 'accepted' | 'invalid', closedBy: number, at: string): InstructionEventRecord {
    return eventFromRow(this.#sql.close.get({ id, state, at, closedBy }) as EventRow);
  }
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
    acked: r.acked !== 0,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
    closedByReleaseId: r.closed_by_release_id,
  };
}
