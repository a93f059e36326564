import type { ProfileSide, ProfilerTool, ProfilingMode } from '../model/index.js';
import { NoProfileError, ProfilerFailedError } from './errors.js';
import { findProgram } from './find-program.js';
import { sampleWithGdb } from './gdb-sampler.js';
import { recordWithPerf, type SamplerOptions } from './perf-record.js';

export interface ProfileProcessOptions extends SamplerOptions {
  mode: ProfilingMode;
  /** PATH to find perf and gdb in; by default exec's. */
  pathEnv?: string;
}

const INSTALL_HINT: Record<ProfilerTool, string> = {
  perf: 'perf is not installed (Debian: apt-get install linux-perf)',
  gdb: 'gdb is not installed (Debian: apt-get install gdb)',
};

const SAMPLERS: Record<ProfilerTool, (program: string, opts: SamplerOptions) => Promise<ProfileSide>> = {
  perf: recordWithPerf,
  gdb: sampleWithGdb,
};

/** The profilers a mode tries, in order: auto falls back from perf to gdb's stack samples. */
export function profilersOf(mode: ProfilingMode): ProfilerTool[] {
  if (mode === 'off') return [];
  return mode === 'auto' ? ['perf', 'gdb'] : [mode];
}

/**
 * One profile of a running process with the first profiler of the mode that works. A profiler that is missing or
 * refused (perf_event_paranoid, a seccomp filter such as the unit's ~@debug) is passed over with its reason; when none
 * works, NoProfileError says each reason in one line.
 */
export async function profileProcess(opts: ProfileProcessOptions): Promise<ProfileSide> {
  if (opts.mode === 'off') throw new NoProfileError(['profiling is off (the profiling option): set it to auto']);
  const reasons: string[] = [];
  for (const tool of profilersOf(opts.mode)) {
    const program = findProgram(tool, opts.pathEnv);
    if (program === undefined) {
      reasons.push(INSTALL_HINT[tool]);
      continue;
    }
    try {
      return await SAMPLERS[tool](program, opts);
    } catch (err) {
      if (!(err instanceof ProfilerFailedError)) throw err;
      opts.log?.warn({ tool, reason: err.reason }, `${tool} could not profile the server`);
      reasons.push(err.message);
    }
  }
  throw new NoProfileError(reasons);
}
