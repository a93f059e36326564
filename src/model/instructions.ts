import type { TestId } from './tests.js';

/**
 * The instructions lane (docs/verdicts.md, "Instructions per query"): besides its QPS pairs, a session counts the
 * instructions each 1-thread test's queries execute in the server's connection thread, a few times per side.
 */

/** How the lane counts: callgrind (valgrind; no PMU needed) or perf stat's instructions:u (a PMU). */
export const instructionCounterKinds = ['callgrind', 'perf'] as const;
export type InstructionCounterKind = (typeof instructionCounterKinds)[number];

/** The instruction_counter option: auto takes perf where the host counts instructions:u, else callgrind. */
export const instructionCounterSettings = ['auto', 'callgrind', 'perf', 'off'] as const;
export type InstructionCounterSetting = (typeof instructionCounterSettings)[number];

/**
 * What the lane decided for one test: regression (C/B over the threshold and beyond the repeats' spread), improvement
 * (under 1/threshold and beyond the spread), ok (even the spread's worst pairing is within the threshold), unclear
 * (the repeats' spread straddles the threshold: the test does not count the same twice).
 */
export const instructionVerdictKinds = ['ok', 'regression', 'improvement', 'unclear'] as const;
export type InstructionVerdictKind = (typeof instructionVerdictKinds)[number];

/** One side's counts of one test: the repeats' instructions per query. */
export interface InstructionSide {
  /** Per repeat, in repeat order. */
  perQuery: number[];
  median: number;
  /** (max - min) / median of the repeats: 0 when they counted the same. */
  spread: number;
}

/** The lane's verdict on one test and the figures it rests on, as analysis gives it and a check stores it. */
export interface InstructionVerdict extends TestId {
  kind: InstructionVerdictKind;
  /** Instructions per query, median C / median B: over 1 is more work per query. */
  ratio: number;
  /** The spread's bounds of the ratio: min C / max B and max C / min B. */
  low: number;
  high: number;
  threshold: number;
  baseline: InstructionSide;
  candidate: InstructionSide;
}

/** One function's instructions per query on one side: in its own code, and with what it called. */
export interface FunctionCost {
  name: string;
  /** The binary or library it is in (its file's base name). */
  object: string;
  exclusive: number;
  inclusive: number;
}

/** A function of both sides' tables, by how much it grew per query from B to C (absent on a side: 0 there). */
export interface FunctionGrowth {
  name: string;
  object: string;
  baselineInclusive: number;
  candidateInclusive: number;
  baselineExclusive: number;
  candidateExclusive: number;
  /** candidateInclusive - baselineInclusive, instructions per query */
  inclusiveGrowth: number;
  exclusiveGrowth: number;
  /**
   * The side whose stored table does not list the function (under its floor, 1 in 10,000 of the run's
   * instructions, or not called there): its figures are 0 above, and a report shows "-" for them.
   */
  unlisted?: 'baseline' | 'candidate';
}

/** The functions that grew most in one test, C against B, from the session's own function tables. */
export interface TestFunctionGrowth extends TestId {
  /** Top growth first (analysis.functionGrowth). */
  functions: FunctionGrowth[];
}

/** How a session's instructions lane ended, as the lane records it. */
export interface InstructionLaneSummary {
  state: 'done' | 'skipped' | 'failed';
  /** Why it was skipped or failed. */
  reason?: string;
  counter?: InstructionCounterKind;
  counterVersion?: string;
  runs: number;
  seconds: number;
}

/** The lane of one session as compare, check and show print it: how it ended and its verdicts. */
export interface InstructionsView {
  lane: InstructionLaneSummary;
  verdicts: InstructionVerdict[];
  /** The release against the series' base from stored figures (a check), with the base's tag. */
  againstBase?: { tag: string; verdicts: InstructionVerdict[] };
  /**
   * Where it grew: per test with both sides' function tables (callgrind names functions, perf does not), in the
   * verdicts' order. Absent: the view was made without them.
   */
  grown?: TestFunctionGrowth[];
}
