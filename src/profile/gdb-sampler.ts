import { run } from '../exec/index.js';
import type { ProfileSide } from '../model/index.js';
import { ProfilerFailedError } from './errors.js';
import { sampleCount } from './fold.js';
import { parseGdbBacktraces } from './gdb-backtrace.js';
import type { SamplerOptions } from './perf-record.js';

/**
 * gdb runs as root against servers built from any upstream commit: no init files, no auto-loaded scripts from the
 * binaries' folders, no debuginfod downloads (no network here, and nothing fetched runs as root).
 */
const GDB_SAFE_START = [
  '-nx',
  '-iex',
  'set auto-load off',
  '-iex',
  'set debuginfod enabled off',
  '-iex',
  'set pagination off',
];

/** A pause between two stack samples: gdb stops the server while it walks its threads; not run back to back. */
const SAMPLE_GAP_MS = 200;
/** One attach, walk and detach; a server with thousands of threads takes seconds. */
const ATTACH_TIMEOUT_MS = 60_000;

/**
 * The poor man's profiler: gdb attaches, prints every thread's backtrace, and detaches, again and again until the
 * seconds are over. Each thread's backtrace at each attach is one sample.
 */
export async function sampleWithGdb(gdb: string, opts: SamplerOptions): Promise<ProfileSide> {
  const deadline = Date.now() + opts.seconds * 1000;
  const texts: string[] = [];
  let failure: string | undefined;
  do {
    opts.signal?.throwIfAborted();
    const result = await run({
      argv: [gdb, ...GDB_SAFE_START, '-p', String(opts.pid), '-batch', '-ex', 'thread apply all bt'],
      timeoutMs: ATTACH_TIMEOUT_MS,
      allowFailure: true,
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    });
    if (result.stdout.includes('\nThread ') || result.stdout.startsWith('Thread ')) texts.push(result.stdout);
    else {
      failure = result.tail.filter((l) => l.trim() !== '').at(-1) ?? `exit ${result.exitCode}`;
      resumeServer(opts.pid);
    }
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_GAP_MS));
  } while (Date.now() < deadline);
  const stacks = parseGdbBacktraces(texts.join('\n'));
  if (stacks.length === 0)
    throw new ProfilerFailedError('gdb', failure ?? 'no backtraces of the server could be taken');
  return { tool: 'gdb', samples: sampleCount(stacks), stacks };
}

/**
 * A gdb that failed or was killed while attached can leave the server stopped (ptrace stop): the run beside it would
 * stall. SIGCONT to a process that runs does nothing; one that is gone is no error here.
 */
function resumeServer(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // Gone already: the session notices the server's death itself.
  }
}
