import { run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { InstructionCounterKind, InstructionCounterSetting } from '../model/index.js';
import { findProgram } from '../profile/index.js';
import { atLeast, MIN_VALGRIND, parseValgrindVersion } from './callgrind.js';
import { PERF_EVENT, perfProbeProblem } from './perf-stat.js';

/** A counter the lane can use on this host: its program and the version its figures are stored with. */
export interface InstructionCounter {
  kind: InstructionCounterKind;
  /** The absolute path of valgrind or perf. */
  program: string;
  /** As the program says it: "valgrind-3.19.0", "perf version 6.1.187". Figures of other versions never compare. */
  version: string;
}

/** The counter to use, or why there is none (one line: the QPS lane goes on without it). */
export type CounterChoice = { counter: InstructionCounter } | { counter: undefined; reason: string };

export interface FindCounterOptions {
  /** PATH to look for valgrind and perf in; exec's by default. */
  pathEnv?: string;
  log?: Logger;
  signal?: AbortSignal;
}

const INSTALL: Record<InstructionCounterKind, string> = {
  callgrind: 'valgrind is not installed (Debian: apt-get install valgrind)',
  perf: 'perf is not installed (Debian: apt-get install linux-perf)',
};

/**
 * The counter of the instruction_counter setting. auto: perf where the host counts instructions:u (a PMU: the same
 * figure at full speed), else callgrind. A counter that is missing, too old or refused gives its reason instead.
 */
export async function findInstructionCounter(
  setting: InstructionCounterSetting,
  opts: FindCounterOptions = {},
): Promise<CounterChoice> {
  if (setting === 'off') return { counter: undefined, reason: 'instruction_counter is off' };
  const kinds: InstructionCounterKind[] = setting === 'auto' ? ['perf', 'callgrind'] : [setting];
  const reasons: string[] = [];
  for (const kind of kinds) {
    const found = await (kind === 'perf' ? perfCounter(opts) : callgrindCounter(opts));
    if (typeof found !== 'string') return { counter: found };
    reasons.push(found);
  }
  return { counter: undefined, reason: reasons.join('; ') };
}

async function callgrindCounter(opts: FindCounterOptions): Promise<InstructionCounter | string> {
  const valgrind = findProgram('valgrind', opts.pathEnv);
  if (valgrind === undefined) return INSTALL.callgrind;
  const out = await run({
    argv: [valgrind, '--version'],
    timeoutMs: 30_000,
    allowFailure: true,
    ...(opts.log !== undefined ? { log: opts.log } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  });
  const text = `${out.stdout}${out.stderr}`.trim();
  const version = parseValgrindVersion(text);
  if (out.exitCode !== 0 || version === undefined)
    return `${valgrind} --version did not say its version (${JSON.stringify(text.slice(0, 80))})`;
  if (!atLeast(version, MIN_VALGRIND))
    return `valgrind ${version.join('.')} is too old: the lane needs ${MIN_VALGRIND.join('.')} or newer`;
  return { kind: 'callgrind', program: valgrind, version: `valgrind-${version.join('.')}` };
}

async function perfCounter(opts: FindCounterOptions): Promise<InstructionCounter | string> {
  const perf = findProgram('perf', opts.pathEnv);
  if (perf === undefined) return INSTALL.perf;
  const common = {
    timeoutMs: 30_000,
    allowFailure: true,
    ...(opts.log !== undefined ? { log: opts.log } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
  };
  // perf exits 0 when the host cannot count the event: only its output says so.
  const probe = await run({ argv: [perf, 'stat', '-e', PERF_EVENT, '-x', ',', '--', 'true'], ...common });
  const problem = probe.exitCode === 0 ? perfProbeProblem(probe.stderr) : `perf stat exited with ${probe.exitCode}`;
  if (problem !== undefined) return problem;
  const version = await run({ argv: [perf, '--version'], ...common });
  return { kind: 'perf', program: perf, version: version.stdout.trim() || 'perf (unknown version)' };
}
