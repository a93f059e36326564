import { profilerTools, type FoldedStack, type ProfilerTool } from '../../model/index.js';
import type { ProfileInput, ProfileRecord, ProfileStore } from '../profile-types.js';
import { z } from 'zod';
import { checkId, parseRecord } from '../validate.js';
import { nowIso, SqlRole } from '../sql.js';

interface ProfileRow {
  id: number;
  baseline: string;
  candidate: string;
  test: string;
  threads: number;
  seconds: number;
  baseline_tool: string;
  candidate_tool: string;
  baseline_stacks: string;
  candidate_stacks: string;
  created_at: string;
  session_id: number | null;
}

const stacks = z.array(z.object({ stack: z.string().min(1), count: z.number().int().positive() }));
const ProfileInputSchema = z.object({
  baseline: z.string().min(1),
  candidate: z.string().min(1),
  test: z.string().min(1),
  threads: z.number().int().positive(),
  seconds: z.number().positive(),
  baselineTool: z.enum(profilerTools),
  candidateTool: z.enum(profilerTools),
  baselineStacks: stacks,
  candidateStacks: stacks,
  sessionId: z.number().int().positive().optional(),
});

/** Each side's folded stacks as JSON: read back whole, never queried by frame. */
export class Profiles extends SqlRole implements ProfileStore {
  async addProfile(raw: ProfileInput): Promise<number> {
    const input = parseRecord(ProfileInputSchema, 'profile', raw);
    return this.write('store a profile', async (tx) => {
      const { insertId } = await tx.run(
        `INSERT INTO profiles (baseline, candidate, test, threads, seconds, baseline_tool, candidate_tool,
            baseline_stacks, candidate_stacks, created_at, session_id)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          input.baseline,
          input.candidate,
          input.test,
          input.threads,
          input.seconds,
          input.baselineTool,
          input.candidateTool,
          JSON.stringify(input.baselineStacks),
          JSON.stringify(input.candidateStacks),
          nowIso(),
          input.sessionId ?? null,
        ],
      );
      return insertId;
    });
  }

  async getProfile(id: number): Promise<ProfileRecord | undefined> {
    checkId('profile', 'id', id);
    return this.read('read a profile', async (tx) => {
      const row = await tx.row<ProfileRow>('SELECT * FROM profiles WHERE id = ?', [id]);
      return row === undefined ? undefined : profileRecord(row);
    });
  }

  async profileOfSession(sessionId: number): Promise<ProfileRecord | undefined> {
    checkId('profile', 'sessionId', sessionId);
    return this.read("read a session's profile", async (tx) => {
      const row = await tx.row<ProfileRow>('SELECT * FROM profiles WHERE session_id = ? ORDER BY id DESC LIMIT 1', [
        sessionId,
      ]);
      return row === undefined ? undefined : profileRecord(row);
    });
  }
}

function profileRecord(row: ProfileRow): ProfileRecord {
  return {
    id: row.id,
    baseline: row.baseline,
    candidate: row.candidate,
    test: row.test,
    threads: row.threads,
    seconds: row.seconds,
    baselineTool: row.baseline_tool as ProfilerTool,
    candidateTool: row.candidate_tool as ProfilerTool,
    baselineStacks: JSON.parse(row.baseline_stacks) as FoldedStack[],
    candidateStacks: JSON.parse(row.candidate_stacks) as FoldedStack[],
    ...(row.session_id !== null ? { sessionId: row.session_id } : {}),
    createdAt: row.created_at,
  };
}
