import type { MemorySettingName } from './memory.js';

/**
 * A test of a suite at one client thread count: the unit every verdict, table row and figure series is kept by. In a
 * series' history and metrics it also names the memory setting its sessions ran under (absent: the server profiles as
 * they are), so an io-bound figure is never mixed with a cached one.
 */
export interface TestId {
  test: string;
  threads: number;
  memory?: MemorySettingName;
}

/** The one key of a test at a thread count (and memory setting), wherever tests are grouped. */
export const testKey = (t: TestId): string =>
  `${t.test}\u0000${t.threads}${t.memory === undefined ? '' : `\u0000${t.memory}`}`;

/**
 * How a test is named in every table, log line and email: its name and thread count, e.g. point-query.t1
 * (point-query.t1.io-bound).
 */
export const testLabel = (t: TestId): string =>
  `${t.test}.t${t.threads}${t.memory === undefined ? '' : `.${t.memory}`}`;

/** The test's identity alone, without the other fields of the record it came in. */
export const testIdOf = (t: TestId): TestId => ({
  test: t.test,
  threads: t.threads,
  ...(t.memory !== undefined ? { memory: t.memory } : {}),
});

/** The two sides of every session: B, the reference, and C, the release under test. */
export const sampleRoles = ['baseline', 'candidate'] as const;
export type SampleRole = (typeof sampleRoles)[number];
