import type { FunctionCost, InstructionCounterKind, SampleRole } from '../../model/index.js';
import { DuplicateInstructionRunError } from '../errors.js';
import type {
  InstructionFunctionsInput,
  InstructionFunctionsRecord,
  InstructionLaneInput,
  InstructionLaneRecord,
  InstructionLaneState,
  InstructionRunInput,
  InstructionRunQuery,
  InstructionRunRecord,
  InstructionStore,
} from '../instruction-types.js';
import type { JsonObject } from '../json-object.js';
import { checkId, parseRecord } from '../validate.js';
import { parseInstructionFunctions, parseInstructionLane, parseInstructionRun } from '../validate-instructions.js';
import { z } from 'zod';
import { nowIso, SqliteRole } from './connection.js';
import { SessionStates } from './session-states.js';

interface RunRow {
  id: number;
  session_id: number;
  role: SampleRole;
  target: string;
  build_key: string;
  test: string;
  threads: number;
  repetition: number;
  instructions: number;
  queries: number;
  condition_key: string;
  conditions: string;
  seconds: number;
  created_at: string;
}

interface LaneRow {
  session_id: number;
  state: InstructionLaneState;
  reason: string | null;
  counter: InstructionCounterKind | null;
  counter_version: string | null;
  runs: number;
  seconds: number;
}

const querySchema = z.object({ buildKey: z.string().min(1), conditionKey: z.string().min(1) });

/** The instructions lane's counted runs, function tables and outcome per session. */
export class SqliteInstructions extends SqliteRole implements InstructionStore {
  readonly #states = new SessionStates(this.connection);
  readonly #sql = this.statements({
    exists: `SELECT 1 FROM instruction_runs
      WHERE session_id = @sessionId AND role = @role AND test = @test AND threads = @threads AND repetition = @repeat`,
    insertRun: `INSERT INTO instruction_runs (session_id, role, target, build_key, test, threads, repetition,
        instructions, queries, condition_key, conditions, seconds, created_at)
      VALUES (@sessionId, @role, @target, @buildKey, @test, @threads, @repeat, @instructions, @queries, @conditionKey,
        @conditions, @seconds, @createdAt)`,
    runsOf: 'SELECT * FROM instruction_runs WHERE session_id = ? ORDER BY id',
    figure: `SELECT r.* FROM instruction_runs r JOIN sessions s ON s.id = r.session_id
      WHERE s.state = 'done' AND r.build_key = @buildKey AND r.condition_key = @conditionKey ORDER BY r.id`,
    upsertFunctions: `INSERT INTO instruction_functions (session_id, role, test, threads, functions)
      VALUES (@sessionId, @role, @test, @threads, @functions)
      ON CONFLICT (session_id, role, test, threads) DO UPDATE SET functions = excluded.functions`,
    functionsOf: `SELECT * FROM instruction_functions WHERE session_id = ? ORDER BY test, threads, role`,
    upsertLane: `INSERT INTO instruction_lanes (session_id, state, reason, counter, counter_version, runs, seconds)
      VALUES (@sessionId, @state, @reason, @counter, @counterVersion, @runs, @seconds)
      ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, reason = excluded.reason,
        counter = excluded.counter, counter_version = excluded.counter_version, runs = excluded.runs,
        seconds = excluded.seconds`,
    laneOf: 'SELECT * FROM instruction_lanes WHERE session_id = ?',
  });

  async addInstructionRun(sessionId: number, raw: InstructionRunInput): Promise<number> {
    checkId('instructions', 'sessionId', sessionId);
    const input = parseInstructionRun(raw);
    return this.write('store an instruction run', () => {
      this.#states.requireRunning(sessionId, 'add an instruction run to');
      const key = { sessionId, role: input.role, test: input.test, threads: input.threads, repeat: input.repeat };
      if (this.#sql.exists.get(key) !== undefined) throw new DuplicateInstructionRunError(sessionId, key);
      return Number(
        this.#sql.insertRun.run({
          ...input,
          sessionId,
          conditions: JSON.stringify(input.conditions),
          createdAt: nowIso(),
        }).lastInsertRowid,
      );
    });
  }

  async instructionRuns(sessionId: number): Promise<InstructionRunRecord[]> {
    checkId('instructions', 'sessionId', sessionId);
    return this.read('read instruction runs', () => (this.#sql.runsOf.all(sessionId) as RunRow[]).map(runFromRow));
  }

  async findInstructionRuns(query: InstructionRunQuery): Promise<InstructionRunRecord[]> {
    const q = parseRecord(querySchema, 'query', query);
    return this.read('find instruction runs', () => (this.#sql.figure.all(q) as RunRow[]).map(runFromRow));
  }

  async addInstructionFunctions(sessionId: number, raw: InstructionFunctionsInput): Promise<void> {
    checkId('instructions', 'sessionId', sessionId);
    const input = parseInstructionFunctions(raw);
    await this.write('store a function table', () => {
      this.#states.of(sessionId);
      this.#sql.upsertFunctions.run({ ...input, sessionId, functions: JSON.stringify(input.functions) });
    });
  }

  async instructionFunctions(sessionId: number): Promise<InstructionFunctionsRecord[]> {
    checkId('instructions', 'sessionId', sessionId);
    return this.read('read function tables', () =>
      (
        this.#sql.functionsOf.all(sessionId) as Array<{
          session_id: number;
          role: SampleRole;
          test: string;
          threads: number;
          functions: string;
        }>
      ).map((r) => ({
        sessionId: r.session_id,
        role: r.role,
        test: r.test,
        threads: r.threads,
        functions: JSON.parse(r.functions) as FunctionCost[],
      })),
    );
  }

  async recordInstructionLane(sessionId: number, raw: InstructionLaneInput): Promise<void> {
    checkId('instructions', 'sessionId', sessionId);
    const input = parseInstructionLane(raw);
    await this.write("record a session's instructions lane", () => {
      this.#states.of(sessionId);
      this.#sql.upsertLane.run({
        sessionId,
        state: input.state,
        reason: input.reason ?? null,
        counter: input.counter ?? null,
        counterVersion: input.counterVersion ?? null,
        runs: input.runs,
        seconds: input.seconds,
      });
    });
  }

  async instructionLane(sessionId: number): Promise<InstructionLaneRecord | undefined> {
    checkId('instructions', 'sessionId', sessionId);
    return this.read("read a session's instructions lane", () => {
      const row = this.#sql.laneOf.get(sessionId) as LaneRow | undefined;
      return row === undefined ? undefined : laneFromRow(row);
    });
  }
}

function runFromRow(r: RunRow): InstructionRunRecord {
  return {
    id: r.id,
    sessionId: r.session_id,
    role: r.role,
    target: r.target,
    buildKey: r.build_key,
    test: r.test,
    threads: r.threads,
    repeat: r.repetition,
    instructions: r.instructions,
    queries: r.queries,
    conditionKey: r.condition_key,
    conditions: JSON.parse(r.conditions) as JsonObject,
    seconds: r.seconds,
    createdAt: r.created_at,
  };
}

function laneFromRow(r: LaneRow): InstructionLaneRecord {
  return {
    sessionId: r.session_id,
    state: r.state,
    ...(r.reason !== null ? { reason: r.reason } : {}),
    ...(r.counter !== null ? { counter: r.counter } : {}),
    ...(r.counter_version !== null ? { counterVersion: r.counter_version } : {}),
    runs: r.runs,
    seconds: r.seconds,
  };
}
