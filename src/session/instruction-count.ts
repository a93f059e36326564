import { rm } from 'node:fs/promises';
import { start } from '../exec/index.js';
import {
  callgrindArgv,
  connectionThreadCount,
  parseCallgrindOutput,
  parsePerfStatPerThread,
  perfStatArgv,
  type CountedFunction,
  type InstructionCounter,
} from '../instructions/index.js';
import type { Logger } from '../log/index.js';
import { profilePoolBytes, type Connection, type RunningServer } from '../server/index.js';
import { countedArgv, runSysbench, type SuiteTest } from '../suite/index.js';
import { readTextFile } from '../trust/index.js';
import { MEASURE_SEED, WARMUP_SEED } from './instruction-conditions.js';
import { connection } from './round.js';
import type { ServerLaunch, TargetInstance } from './target-instance.js';

/** One counted run of one test on one side. */
export interface CountRequest {
  instance: TargetInstance;
  test: SuiteTest;
  counter: InstructionCounter;
  events: number;
  warmupEvents: number;
  /** Names this run's counter file in the instance's folder (kept with the session's logs). */
  label: string;
  signal: AbortSignal;
  log: Logger;
}

export interface CountResult {
  instructions: number;
  queries: number;
  /** callgrind's function table of the run (whole-run counts); perf counts no functions. */
  functions?: CountedFunction[];
  seconds: number;
}

/** The server counted nothing: the binary does not name the dispatcher, or the run asked no query of it. */
export class NothingCountedError extends Error {
  constructor(
    readonly target: string,
    detail: string,
  ) {
    super(`${target}: counted no instructions (${detail})`);
    this.name = new.target.name;
  }
}

/** A server under valgrind starts several times slower than alone (10 s on a 2-core VM, a minute when it is busy). */
const COUNTED_READY_MS = 10 * 60 * 1000;
/** Fewer instructions per query than this on the busiest thread: perf did not count the connection's thread. */
const MIN_PER_QUERY = 1000;
/** perf attaches to the server's threads within milliseconds of starting; the measured run waits this long for it. */
const PERF_ATTACH_MS = 500;
/**
 * A counter's output file is written by the server's account (callgrind runs inside mysqld): read with a bound, and
 * only when it is a regular UTF-8 file. A run of a few thousand events writes a few MB.
 */
const COUNTER_OUTPUT = { what: 'instruction counter output', maxBytes: 256 * 1024 * 1024 };

/**
 * One run from the loaded snapshot, as the lane counts it (docs/verdicts.md, "Instructions per query"): a fresh copy of
 * the datadir, the server started under the counter, a connection holding a consistent snapshot open (so purge,
 * whose progress depends on timing, does nothing to the rows the run changes), the warm-up's events, then the
 * measured events, counted; the server stopped by signal.
 */
export async function countOnce(req: CountRequest): Promise<CountResult> {
  const started = Date.now();
  const { instance, counter, signal } = req;
  await instance.restoreSnapshot();
  signal.throwIfAborted();
  const file = await instance.serverWritableFile(`instructions-${req.label}.${counter.kind}`);
  const server = await instance.start(req.log, launchOf(instance, counter, file));
  let queries: number;
  let perfText: string | undefined;
  let hold: Connection | undefined;
  try {
    hold = await server.connect(req.test.load.database);
    await hold.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    if (req.warmupEvents > 0) await sysbench(req, req.warmupEvents, WARMUP_SEED);
    if (counter.kind === 'perf') {
      const counted = await withPerf(counter, server, file, req, () => sysbench(req, req.events, MEASURE_SEED));
      queries = counted.queries;
      perfText = counted.text;
    } else queries = (await sysbench(req, req.events, MEASURE_SEED)).queries;
  } finally {
    // The hold's connection is left open until the server is gone: closing it would run a command (COM_QUIT) in the
    // dispatcher callgrind counts.
    await server.stop();
    hold?.destroy();
  }
  const seconds = (Date.now() - started) / 1000;
  if (perfText !== undefined) {
    await rm(file, { force: true });
    const instructions = connectionThreadCount(parsePerfStatPerThread(perfText)).value!;
    // A query takes tens of thousands of instructions: fewer means perf missed the connection's thread.
    if (instructions / queries < MIN_PER_QUERY)
      throw new NothingCountedError(
        instance.target.name,
        `perf counted ${Math.round(instructions / queries)} per query on the busiest thread: the measured ` +
          `connection ran on a thread perf did not attach to (thread_cache_size 0?)`,
      );
    return { instructions, queries, seconds };
  }
  const profile = parseCallgrindOutput(readTextFile(file, COUNTER_OUTPUT));
  if (profile.instructions === 0)
    throw new NothingCountedError(
      instance.target.name,
      `its mysqld does not name dispatch_command, or the run reached no query; see ${file}`,
    );
  return { instructions: profile.instructions, queries, functions: profile.functions, seconds };
}

/**
 * What the lane lays over the server's my.cnf (loose-: a version that lacks an option ignores it). No buffer pool
 * load at start: it races the warm-up from a background thread. Under callgrind: no native AIO (valgrind does not
 * know io_uring's system calls, and the server hangs at start), innodb_buffer_pool_size_max set to the pool
 * (10.11.19 reserves address space for the whole default, which valgrind cannot map), and no spin-waits.
 */
export function launchOf(instance: TargetInstance, counter: InstructionCounter, file: string): ServerLaunch {
  const common = ['--loose-innodb-buffer-pool-load-at-startup=0'];
  if (counter.kind === 'perf')
    // perf counts the threads there when it starts: the measured connection must take the warm-up's cached thread.
    return { extraArgs: [...common, '--loose-thread-cache-size=16'] };
  const pool = profilePoolBytes(instance.target.profile, instance.target.binaries);
  return {
    wrapper: callgrindArgv(counter.program, file),
    extraArgs: [
      ...common,
      '--loose-innodb-use-native-aio=0',
      `--loose-innodb-buffer-pool-size-max=${pool}`,
      // valgrind runs one thread at a time: a thread that spins on a latch waits for a holder that cannot run, and
      // its spinning is counted. 10.5.23's update-index spun for about 85 million instructions a query that way, so
      // its 500 warm-up events overran their 170 s; without spinning it counts 148,894, steady to 0.11%.
      '--loose-innodb-sync-spin-loops=0',
      '--loose-innodb-spin-wait-delay=0',
    ],
    stopBySignal: true,
    readyMs: COUNTED_READY_MS,
  };
}

async function sysbench(req: CountRequest, events: number, seed: number): Promise<{ queries: number }> {
  const argv = countedArgv(req.test, 1, connection(req.instance), { events, seed });
  // Under valgrind a write can take several milliseconds: a generous bound, only against a hang.
  return runSysbench(argv, {
    logFile: req.instance.sysbenchLog,
    timeoutMs: 120_000 + events * 100,
    signal: req.signal,
    log: req.log,
  });
}

/** perf stat on the server's threads around fn (the measured run): its CSV text and fn's queries. */
async function withPerf(
  counter: InstructionCounter,
  server: RunningServer,
  file: string,
  req: CountRequest,
  fn: () => Promise<{ queries: number }>,
): Promise<{ queries: number; text: string }> {
  const perf = start({
    argv: perfStatArgv(counter.program, server.pid, file),
    timeoutMs: 60 * 60 * 1000,
    allowFailure: true,
    signal: req.signal,
    log: req.log,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, PERF_ATTACH_MS));
    const { queries } = await fn();
    // SIGINT: perf stops counting and writes what it counted.
    perf.interrupt();
    await perf.exited;
    return { queries, text: readTextFile(file, COUNTER_OUTPUT) };
  } finally {
    await perf.stop();
  }
}
