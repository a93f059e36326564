import type { Connection } from 'mysql2/promise';
import type { ServerCredential } from './credential.js';

export type { Connection };

export interface ConnectOptions {
  readonly socket: string;
  readonly database?: string;
  readonly connectTimeoutMs?: number;
  /** root's session password; without it, root with no password (a datadir straight from init). */
  readonly credential?: ServerCredential;
}

/**
 * A connection as root over the unix socket. A dropped connection emits 'error'; without a listener that would crash
 * the daemon, so one is always attached.
 */
export async function connectRoot(opts: ConnectOptions): Promise<Connection> {
  // mysql2 is loaded at the first connection, not at start: an idle daemon talks to no server.
  const { createConnection } = await import('mysql2/promise');
  const conn = await createConnection({
    socketPath: opts.socket,
    user: 'root',
    password: opts.credential?.reveal() ?? '',
    connectTimeout: opts.connectTimeoutMs ?? 10_000,
    multipleStatements: false,
    ...(opts.database !== undefined ? { database: opts.database } : {}),
  });
  conn.on('error', () => undefined);
  return conn;
}
