import { pino } from 'pino';
import type { Logger } from '../../../src/log/index.js';
import type { SampleRole } from '../../../src/model/index.js';
import {
  perOperation,
  type DataDevice,
  type ObserverCost,
  type StatusConnection,
} from '../../../src/sampling/index.js';
import type { ServerExit } from '../../../src/server/index.js';
import type {
  MeasureInput,
  PairedPlan,
  ProcessActivity,
  RoundContext,
  SessionParts,
  SideServer,
} from '../../../src/session/index.js';
import type { SampleInput } from '../../../src/store/index.js';
import type { Suite, SuiteTest } from '../../../src/suite/index.js';
import type { RowCounter } from '../../../src/session/data-changing.js';

/** A clock that moves only when told: a sleep returns at once, the time it would have taken added. */
export class FakeClock {
  ms = 0;
  sleeps = 0;
  now(): number {
    return this.ms;
  }
  sleep(ms: number): Promise<void> {
    this.ms += ms;
    this.sleeps++;
    return Promise.resolve();
  }
}

/** One side's fake server: what the session did to it. */
export class FakeServer implements SideServer {
  readonly reading: SideServer['reading'];
  readonly server: SideServer['server'];
  pauses = 0;
  closed = 0;
  private die: (exit: ServerExit) => void = () => undefined;

  constructor(
    readonly role: SampleRole,
    readonly targetName: string,
    pid: number,
    errorLog: string,
  ) {
    const exited = new Promise<ServerExit>((resolve) => (this.die = resolve));
    this.server = {
      pid,
      exited,
      errorLog,
      pause: () => void this.pauses++,
      resume: () => undefined,
    };
    // The fake measure never reads these: they stand for the status connection and sysbench's login.
    this.reading = {
      status: {} as StatusConnection,
      observer: {} as ObserverCost,
      conn: { socket: `/nonexistent/${role}.sock`, user: 'root' },
      sysbenchLog: `/nonexistent/${role}/sysbench.log`,
    };
  }

  /** The process ends without the session stopping it, as a crash does. */
  crash(signal: NodeJS.Signals): void {
    this.die({ exitCode: null, signal, forced: false });
  }

  close(): Promise<void> {
    this.closed++;
    return Promise.resolve();
  }
}

/** A sample as the real measure would give it, with the QPS the test chose. */
export function fakeSample(input: MeasureInput, qps: number): SampleInput {
  const usage = {
    seconds: input.test.seconds,
    cpus: 2,
    usPct: 40,
    syPct: 10,
    cpuBusyPct: 50,
    iowaitPct: 0,
    csPerSec: 1000,
    readsPerSec: 0,
    readKBPerSec: 0,
    writesPerSec: 10,
    writeKBPerSec: 100,
    device: 'fake',
  };
  return {
    round: input.round,
    role: input.role,
    targetName: input.targetName,
    test: input.test.name,
    threads: input.threads,
    seconds: input.test.seconds,
    qps,
    tps: qps / 20,
    latencyAvgMs: 1,
    latencyP95Ms: 2,
    latencyMaxMs: 3,
    errors: 0,
    reconnects: 0,
    ...perOperation(usage, qps, input.threads),
    host: usage,
    dbCounters: {},
  };
}

export interface FakeOptions {
  /** One measured run: by default a sample of 1000 QPS on both sides. */
  measure?: (input: MeasureInput, parts: FakeParts) => Promise<SampleInput>;
  /** The drain's reading of a pid; by default every process has gone (nothing to wait for). */
  activity?: (pid: number) => ProcessActivity | undefined;
  /** The row counts after a test's first pair; by default none to check. */
  rowCounts?: RowCounter;
}

/** The fake parts and what the session did with them. */
export interface FakeParts extends SessionParts {
  clock: FakeClock;
  servers: Partial<Record<SampleRole, FakeServer>>;
  loaded: SampleRole[];
  warmedUp: SampleRole[];
  measured: MeasureInput[];
}

export const PIDS: Record<SampleRole, number> = { baseline: 1001, candidate: 1002 };

export function fakeParts(opts: FakeOptions = {}, errorLog = '/nonexistent/error.log'): FakeParts {
  const parts: FakeParts = {
    clock: new FakeClock(),
    servers: {},
    loaded: [],
    warmedUp: [],
    measured: [],
    load: (role) => Promise.resolve(void parts.loaded.push(role)),
    start: (role) => {
      const server = new FakeServer(role, `${role}-target`, PIDS[role], errorLog);
      parts.servers[role] = server;
      return Promise.resolve(server);
    },
    warmUp: (role) => Promise.resolve(void parts.warmedUp.push(role)),
    rowCounts: (role, load) => opts.rowCounts?.(role, load) ?? Promise.resolve([]),
    measure: (input) => {
      parts.measured.push(input);
      return opts.measure?.(input, parts) ?? Promise.resolve(fakeSample(input, 1000));
    },
    activity: opts.activity ?? (() => undefined),
  };
  return parts;
}

export function fakeTest(name: string, seconds = 10): SuiteTest {
  return { name, seconds, threads: [1] } as unknown as SuiteTest;
}

/** The suite fields the session reads: its tests and the warm-up's length. */
export function fakeSuite(tests: SuiteTest[]): Suite {
  return { name: 'fake', tests, warmup: { seconds: 5 }, loads: [] } as unknown as Suite;
}

export function plan(overrides: Partial<PairedPlan> = {}): PairedPlan {
  return {
    budgetMinutes: 60,
    maxPairs: 200,
    idleServer: 'drain',
    idleSettleMaxSeconds: 15,
    // The verdicts cut the blocks as the session restarts its servers.
    verdicts: { threshold: 0.95, testThresholds: {}, alpha: 0.01, instanceSeconds: overrides.instanceSeconds ?? 0 },
    instanceSeconds: 0,
    restartWarmupSeconds: 1,
    ...overrides,
  };
}

/** A log line as pino writes it. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A context whose store keeps the samples in memory and whose log keeps its lines. */
export function fakeContext(): { ctx: RoundContext; stored: SampleInput[]; lines: LogLine[] } {
  const stored: SampleInput[] = [];
  const lines: LogLine[] = [];
  // pino writes each line whole, at once, to any object with write().
  const sink = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  const log: Logger = pino({ level: 'debug' }, sink);
  const store = {
    addSample: (_id: number, sample: SampleInput) => Promise.resolve(stored.push(sample)),
    recordServerVariables: () => Promise.resolve(),
    recordStatementPlans: () => Promise.resolve(),
  };
  const ctx: RoundContext = {
    store,
    log,
    signal: new AbortController().signal,
    sessionId: 7,
    device: {} as DataDevice,
  };
  return { ctx, stored, lines };
}

/** pino's level number for warn. */
export const WARN = 40;
