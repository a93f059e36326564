import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/index.js';
import type { Logger } from '../../src/log/index.js';
// The benchmark drives one target the way a compare round does.
import { prepareTarget, TargetInstance, type PreparedTarget } from '../../src/session/index.js';
import { findDataDevice, type DataDevice } from '../../src/sampling/index.js';
import type { Connection, RunningServer } from '../../src/server/index.js';
import {
  prepareArgv,
  prepareSysbench,
  runSysbench,
  warmupArgv,
  type Suite,
  type SysbenchConnection,
} from '../../src/suite/index.js';

export interface BenchServerOptions {
  /** A server config profile from config/server-profiles. */
  profile: string;
  /** The host's installed server: the basedir qpswatch resolves mysqld and its version from. */
  basedir: string;
  signal: AbortSignal;
  /** Progress for a person, one line each. */
  say: (line: string) => void;
  log: Logger;
}

const TARGET = 'bench';
const LOAD_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * One installed MariaDB under a private temp dir (datadir, socket, logs), set up exactly as a compare round sets up
 * a target: loadConfig's defaults, prepareTarget, TargetInstance's my.cnf and init, the suite's load. close() stops
 * the server and removes the dir; it is idempotent, never throws, and is safe to call at any point of set-up.
 */
export class BenchServer {
  private server: RunningServer | undefined;
  private statusConn: Connection | undefined;
  private instance: TargetInstance | undefined;
  private closing: Promise<boolean> | undefined;

  private constructor(
    readonly dir: string,
    readonly config: Config,
    private readonly opts: BenchServerOptions,
  ) {}

  /** Makes the temp dir; nothing runs yet, but from here on close() is owed. */
  static async create(opts: BenchServerOptions): Promise<BenchServer> {
    // Short: a unix socket path must fit in 107 bytes.
    const dir = await mkdtemp(join(tmpdir(), 'qpswatch-bench-'));
    try {
      const config = loadConfig({
        env: {},
        cwd: dir,
        overrides: {
          state_dir: dir,
          targets: {
            [TARGET]: { kind: 'installed', flavor: 'mariadb', basedir: opts.basedir, server_profile: opts.profile },
          },
        },
      });
      return new BenchServer(dir, config, opts);
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  get target(): PreparedTarget {
    if (this.instance === undefined) throw new Error('BenchServer.target read before start()');
    return this.instance.target;
  }

  get sysbenchLog(): string {
    return this.instance?.sysbenchLog ?? join(this.dir, 'sysbench.log');
  }

  /** A connection of its own for SHOW GLOBAL STATUS, as a round opens one. */
  get status(): Connection {
    if (this.statusConn === undefined) throw new Error('BenchServer.status read before start()');
    return this.statusConn;
  }

  /** The running server, for what a measured run asks of it (whether it died). */
  get running(): RunningServer {
    if (this.server === undefined) throw new Error('BenchServer.running read before start()');
    return this.server;
  }

  get connection(): SysbenchConnection {
    if (this.server === undefined) throw new Error('BenchServer.connection read before start()');
    // root has the instance's random password since its first start; sysbench reads it from the instance's file.
    return { socket: this.server.socket, user: 'root', optionsFile: this.instance!.sysbenchPasswordFile };
  }

  dataDevice(): DataDevice {
    return findDataDevice(this.dir);
  }

  /**
   * Initialises the datadir, starts the server and loads the suite's tables. Init and start take no signal, and exec
   * does not stop a child started after the abort: so the abort is checked between steps.
   */
  async start(suite: Suite): Promise<void> {
    const { signal, say } = this.opts;
    const target = await prepareTarget(TARGET, this.config.targets[TARGET]!, this.config.server_profiles_dir, {
      log: this.opts.log,
    });
    this.instance = new TargetInstance(target, this.dir, join(this.dir, 'mysqld.sock'), undefined, undefined, {
      readyMs: this.config.server_start_timeout_seconds * 1000,
      stopMs: this.config.server_stop_timeout_seconds * 1000,
    });
    say(
      `initialising a datadir for ${target.ref.flavor} ${target.ref.version} ` +
        `(profile ${target.ref.serverProfile}) in ${this.dir}`,
    );
    await this.instance.initialise(this.opts.log);
    signal.throwIfAborted();
    this.server = await this.instance.start(this.opts.log);
    signal.throwIfAborted();
    say(`server up (pid ${this.server.pid}); loading ${suite.load.tables} x ${suite.load.tableSize} rows`);
    await this.server.query(`CREATE DATABASE IF NOT EXISTS ${suite.load.database}`);
    await prepareSysbench(prepareArgv(suite, this.connection), {
      logFile: this.sysbenchLog,
      timeoutMs: LOAD_TIMEOUT_MS,
      signal,
      log: this.opts.log,
    });
    this.statusConn = await this.server.connect();
  }

  /** The suite's warm-up run, as every round starts with. */
  async warmUp(suite: Suite): Promise<void> {
    this.opts.signal.throwIfAborted();
    this.opts.say(`warm-up: ${suite.warmup.script}, ${suite.warmup.seconds} s`);
    await runSysbench(warmupArgv(suite.warmup, this.connection), {
      logFile: this.sysbenchLog,
      timeoutMs: suite.warmup.seconds * 1000 + 120_000,
      signal: this.opts.signal,
      log: this.opts.log,
    });
  }

  /**
   * Resolves true when every step succeeded; a failed step is said (with what is left behind) and the next still runs.
   */
  close(): Promise<boolean> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<boolean> {
    let clean = true;
    const step = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
      try {
        await fn();
      } catch (err) {
        clean = false;
        this.opts.say(`clean-up: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    await step('closing the status connection', async () => this.statusConn?.end());
    if (this.server !== undefined) {
      const { pid } = this.server;
      this.opts.say(`stopping the server (pid ${pid})`);
      await step(`stopping the server (pid ${pid}; check it is gone)`, async () => this.server?.stop());
    }
    await step(`removing ${this.dir}`, () => rm(this.dir, { recursive: true, force: true }));
    return clean;
  }
}
