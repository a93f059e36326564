import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { ChildHandle, RunResult } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { Version } from '../version/index.js';
import { connectRoot, type Connection } from './connection.js';
import type { ServerCredential } from './credential.js';

/** How a server process ended. */
export interface ServerExit {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /**
   * Stopped by signal (SIGTERM, then SIGKILL if that did not end it) instead of the SHUTDOWN statement: the server
   * ignored SHUTDOWN or hung, or it is MySQL 5.6, which has no SHUTDOWN statement.
   */
  readonly forced: boolean;
}

export interface RunningServer {
  readonly pid: number;
  readonly socket: string;
  readonly port?: number;
  readonly errorLog: string;
  readonly version: Version;
  /** Runs one statement on the server's admin connection. */
  query<T extends RowDataPacket[] | ResultSetHeader = RowDataPacket[]>(sql: string, values?: unknown[]): Promise<T>;
  /** A new connection as root over the socket (with the session's password when it has one); the caller ends it. */
  connect(database?: string): Promise<Connection>;
  /** Settles when the process ends for any reason: a crash mid-session shows up here. */
  readonly exited: Promise<ServerExit>;
  isRunning(): boolean;
  /** Freezes the server (SIGSTOP): it takes no CPU and does no background work until resumed. Idempotent. */
  pause(): void;
  /** Lets a server paused by pause() run again (SIGCONT). Idempotent; a server it did not pause is left alone. */
  resume(): void;
  /** SHUTDOWN, wait, then SIGTERM and SIGKILL by escalation. Idempotent; resolves when no process is left. */
  stop(): Promise<ServerExit>;
}

export interface RunningServerParts {
  readonly handle: ChildHandle;
  readonly exited: Promise<RunResult>;
  readonly admin: Connection;
  readonly socket: string;
  readonly port?: number;
  readonly errorLog: string;
  readonly version: Version;
  readonly stopTimeoutMs: number;
  /** root@localhost's password; undefined: root has none. */
  readonly credential?: ServerCredential;
  /** The server's logger (component server). */
  readonly log: Logger;
  /** stop() sends SIGTERM (then SIGKILL) without a SHUTDOWN statement first. */
  readonly stopBySignal?: boolean;
}

export class RunningServerImpl implements RunningServer {
  readonly pid: number;
  readonly socket: string;
  readonly port?: number;
  readonly errorLog: string;
  readonly version: Version;
  readonly exited: Promise<ServerExit>;
  private admin: Connection | undefined;
  private running = true;
  private forced = false;
  private stopping?: Promise<ServerExit>;

  constructor(private readonly parts: RunningServerParts) {
    this.pid = parts.handle.pid;
    this.socket = parts.socket;
    if (parts.port !== undefined) this.port = parts.port;
    this.errorLog = parts.errorLog;
    this.version = parts.version;
    this.admin = this.watch(parts.admin);
    this.exited = parts.exited.then((r) => {
      this.running = false;
      this.admin?.destroy();
      return { exitCode: r.exitCode, signal: r.signal, forced: this.forced };
    });
  }

  isRunning(): boolean {
    return this.running;
  }

  pause(): void {
    if (this.running) this.parts.handle.pause();
  }

  resume(): void {
    this.parts.handle.resume();
  }

  async query<T extends RowDataPacket[] | ResultSetHeader = RowDataPacket[]>(
    sql: string,
    values?: unknown[],
  ): Promise<T> {
    const conn = await this.adminConnection();
    const [rows] = await conn.query<T>(sql, values);
    return rows;
  }

  connect(database?: string): Promise<Connection> {
    const { credential } = this.parts;
    return connectRoot({
      socket: this.socket,
      ...(database !== undefined ? { database } : {}),
      ...(credential !== undefined ? { credential } : {}),
    });
  }

  stop(): Promise<ServerExit> {
    // A server this session paused would never answer SHUTDOWN (resume does nothing to one it did not pause).
    this.resume();
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async adminConnection(): Promise<Connection> {
    this.admin ??= this.watch(await this.connect());
    return this.admin;
  }

  /** A connection the server dropped (wait_timeout, a KILL) is replaced on next use rather than failing every query. */
  private watch(conn: Connection): Connection {
    conn.on('error', () => {
      if (this.admin === conn) this.admin = undefined;
    });
    return conn;
  }

  private async shutdown(): Promise<ServerExit> {
    const { log } = this.parts;
    if (this.running && this.parts.stopBySignal === true) {
      // SIGTERM is mysqld's own clean shutdown; exec sends SIGKILL if that does not end it within stopTimeoutMs.
      await this.parts.handle.stop(this.parts.stopTimeoutMs);
    } else if (this.running) {
      const accepted = await this.sendShutdown();
      const ended =
        accepted &&
        (await Promise.race([this.exited.then(() => true), delay(this.parts.stopTimeoutMs).then(() => false)]));
      if (!ended) {
        log.warn(
          { serverPid: this.pid, accepted, waitedMs: this.parts.stopTimeoutMs },
          'server did not shut down; stopping it by signal',
        );
        this.forced = true;
        // SIGTERM is mysqld's own clean shutdown; exec sends SIGKILL if that does not end it in time.
        await this.parts.handle.stop();
      }
    }
    this.admin?.destroy();
    this.admin = undefined;
    return this.exited;
  }

  /** MySQL 5.6 has no SHUTDOWN statement; a server that drops the connection while shutting down counts as accepted. */
  private async sendShutdown(): Promise<boolean> {
    try {
      // A hung server would leave the statement waiting for ever; the timeout sends us down the signal path.
      await (await this.adminConnection()).query({ sql: 'SHUTDOWN', timeout: this.parts.stopTimeoutMs });
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      this.parts.log.debug({ serverPid: this.pid, code, err: (err as Error).message }, 'SHUTDOWN statement failed');
      return code === 'PROTOCOL_CONNECTION_LOST' || code === 'ECONNRESET';
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
