/** Differential profiles: the folded stacks of both servers during one test (qpswatch profile). */

import type { FoldedStack, ProfilerTool } from '../model/index.js';

export interface ProfileInput {
  /** Target names or release tags, as the command was given them. */
  baseline: string;
  candidate: string;
  test: string;
  threads: number;
  seconds: number;
  baselineTool: ProfilerTool;
  candidateTool: ProfilerTool;
  baselineStacks: FoldedStack[];
  candidateStacks: FoldedStack[];
  /** The check's session whose regression this profile was taken for; absent for `qpswatch profile`. */
  sessionId?: number;
}

export interface ProfileRecord extends ProfileInput {
  id: number;
  createdAt: string;
}

export interface ProfileStore {
  /** Returns the new profile's id. */
  addProfile(input: ProfileInput): Promise<number>;
  getProfile(id: number): Promise<ProfileRecord | undefined>;
  /** The newest profile taken for a check's session (its regression), if any. */
  profileOfSession(sessionId: number): Promise<ProfileRecord | undefined>;
}
