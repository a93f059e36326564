/**
 * A CPU profile as folded stacks: each distinct call stack once, its frames root first joined by ';', with the
 * number of samples that caught it. Frame names are symbol names from a profiled binary: data, escaped wherever shown.
 */
export interface FoldedStack {
  stack: string;
  count: number;
}

/** The profilers qpswatch can run: perf's sampled call graphs, or gdb's backtraces (a poor man's profiler). */
export const profilerTools = ['perf', 'gdb'] as const;
export type ProfilerTool = (typeof profilerTools)[number];

/** The profiling option: auto tries perf, then gdb; off profiles nothing. */
export const profilingModes = ['auto', 'perf', 'gdb', 'off'] as const;
export type ProfilingMode = (typeof profilingModes)[number];

export function isProfilingMode(text: string): text is ProfilingMode {
  return (profilingModes as readonly string[]).includes(text);
}

/** One server's profile during one test. */
export interface ProfileSide {
  tool: ProfilerTool;
  samples: number;
  stacks: FoldedStack[];
}

/** A function's share of samples on each side: self (it was the leaf) and total (it was anywhere on the stack). */
export interface FrameShareRow {
  frame: string;
  baselineSelf: number;
  candidateSelf: number;
  baselineTotal: number;
  candidateTotal: number;
  /** candidateTotal - baselineTotal: the growth the table is ranked by. */
  totalGrowth: number;
  selfGrowth: number;
}
