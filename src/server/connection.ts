import { createConnection, type Connection } from 'mysql2/promise';

export type { Connection };

export interface ConnectOptions {
  readonly socket: string;
  readonly database?: string;
  readonly connectTimeoutMs?: number;
}

/**
 * A connection as root over the unix socket (init leaves root without a password). A dropped connection emits
 * 'error'; without a listener that would crash the daemon, so one is always attached.
 */
export async function connectRoot(opts: ConnectOptions): Promise<Connection> {
  const conn = await createConnection({
    socketPath: opts.socket,
    user: 'root',
    password: '',
    connectTimeout: opts.connectTimeoutMs ?? 10_000,
    multipleStatements: false,
    ...(opts.database !== undefined ? { database: opts.database } : {}),
  });
  conn.on('error', () => undefined);
  return conn;
}
