/** A test of a suite at one client thread count: the unit every verdict, table row and figure series is kept by. */
export interface TestId {
  test: string;
  threads: number;
}

/** The one key of a test at a thread count, wherever tests are grouped. */
export const testKey = (t: TestId): string => `${t.test}\u0000${t.threads}`;

/** How a test is named in every table, log line and email: its name and thread count, e.g. point-query.t1. */
export const testLabel = (t: TestId): string => `${t.test}.t${t.threads}`;

/** The two sides of every session: B, the reference, and C, the release under test. */
export const sampleRoles = ['baseline', 'candidate'] as const;
export type SampleRole = (typeof sampleRoles)[number];
