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
import { nowIso, SqlRole } from '../sql.js';
import { requireRunning, sessionState } from './session-states.js';

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
export class Instructions extends SqlRole implements InstructionStore {
  async addInstructionRun(sessionId: number, raw: InstructionRunInput): Promise<number> {
    checkId('instructions', 'sessionId', sessionId);
    const input = parseInstructionRun(raw);
    return this.write('store an instruction run', async (tx) => {
      await requireRunning(tx, sessionId, 'add an instruction run to');
      const exists = await tx.row(
        `SELECT 1 AS yes FROM instruction_runs
          WHERE session_id = ? AND role = ? AND test = ? AND threads = ? AND repetition = ?`,
        [sessionId, input.role, input.test, input.threads, input.repeat],
      );
      if (exists !== undefined)
        throw new DuplicateInstructionRunError(sessionId, {
          role: input.role,
          test: input.test,
          threads: input.threads,
          repeat: input.repeat,
        });
      const { insertId } = await tx.run(
        `INSERT INTO instruction_runs (session_id, role, target, build_key, test, threads, repetition, instructions,
            queries, condition_key, conditions, seconds, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          sessionId,
          input.role,
          input.target,
          input.buildKey,
          input.test,
          input.threads,
          input.repeat,
          input.instructions,
          input.queries,
          input.conditionKey,
          JSON.stringify(input.conditions),
          input.seconds,
          nowIso(),
        ],
      );
      return insertId;
    });
  }

  async instructionRuns(sessionId: number): Promise<InstructionRunRecord[]> {
    checkId('instructions', 'sessionId', sessionId);
    return this.read('read instruction runs', async (tx) =>
      (await tx.rows<RunRow>('SELECT * FROM instruction_runs WHERE session_id = ? ORDER BY id', [sessionId])).map(
        runFromRow,
      ),
    );
  }

  async findInstructionRuns(query: InstructionRunQuery): Promise<InstructionRunRecord[]> {
    const q = parseRecord(querySchema, 'query', query);
    return this.read('find instruction runs', async (tx) =>
      (
        await tx.rows<RunRow>(
          `SELECT r.* FROM instruction_runs r JOIN sessions s ON s.id = r.session_id
            WHERE s.state = 'done' AND r.build_key = ? AND r.condition_key = ? ORDER BY r.id`,
          [q.buildKey, q.conditionKey],
        )
      ).map(runFromRow),
    );
  }

  async addInstructionFunctions(sessionId: number, raw: InstructionFunctionsInput): Promise<void> {
    checkId('instructions', 'sessionId', sessionId);
    const input = parseInstructionFunctions(raw);
    await this.write('store a function table', async (tx) => {
      await sessionState(tx, sessionId);
      await this.dialect.upsert(tx, {
        table: 'instruction_functions',
        row: {
          session_id: sessionId,
          role: input.role,
          test: input.test,
          threads: input.threads,
          functions: JSON.stringify(input.functions),
        },
        key: ['session_id', 'role', 'test', 'threads'],
        update: ['functions'],
      });
    });
  }

  async instructionFunctions(sessionId: number): Promise<InstructionFunctionsRecord[]> {
    checkId('instructions', 'sessionId', sessionId);
    return this.read('read function tables', async (tx) =>
      (
        await tx.rows<{ session_id: number; role: SampleRole; test: string; threads: number; functions: string }>(
          'SELECT * FROM instruction_functions WHERE session_id = ? ORDER BY test, threads, role',
          [sessionId],
        )
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
    await this.write("record a session's instructions lane", async (tx) => {
      await sessionState(tx, sessionId);
      await this.dialect.upsert(tx, {
        table: 'instruction_lanes',
        row: {
          session_id: sessionId,
          state: input.state,
          reason: input.reason ?? null,
          counter: input.counter ?? null,
          counter_version: input.counterVersion ?? null,
          runs: input.runs,
          seconds: input.seconds,
        },
        key: ['session_id'],
        update: ['state', 'reason', 'counter', 'counter_version', 'runs', 'seconds'],
      });
    });
  }

  async instructionLane(sessionId: number): Promise<InstructionLaneRecord | undefined> {
    checkId('instructions', 'sessionId', sessionId);
    return this.read("read a session's instructions lane", async (tx) => {
      const row = await tx.row<LaneRow>('SELECT * FROM instruction_lanes WHERE session_id = ?', [sessionId]);
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
