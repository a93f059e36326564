export { foldStacks, frameName, sampleCount } from './fold.js';
export { parsePerfScript } from './perf-script.js';
export { parseGdbBacktraces, gdbFrame } from './gdb-backtrace.js';
export { rankGrownFrames } from './shares.js';
export { findProgram } from './find-program.js';
export { NoProfileError, ProfilerFailedError } from './errors.js';
export { profileProcess, profilersOf, type ProfileProcessOptions } from './profile-process.js';
export type { SamplerOptions } from './perf-record.js';
