import { createConnection, type Connection } from 'mysql2/promise';
import { openStore, type MysqlStoreOptions, type Store } from '../../src/store/index.js';
import { startScratchServer, type ScratchServer } from './mariadb.js';

/** The user the stores connect as: a password user with rights on the test databases only, no SUPER. */
export const STORE_USER = 'qpsw_store';
export const STORE_PASSWORD = 'Store-pw-7f3a9c';
const DATABASE_PREFIX = 'qpsw_t';

/**
 * A MariaDB for a MySQL store's tests: a scratch server (this host's mariadbd, own datadir, private socket), a
 * password user, and a new empty database on each call of freshDatabase. `admin` is the server's root over the
 * socket (unix_socket authentication), for what a test does behind the store's back.
 */
export interface ResultsServer {
  readonly scratch: ScratchServer;
  readonly admin: Connection;
  /** Creates an empty database of a new name and returns the options of a store in it. */
  freshDatabase(): Promise<MysqlStoreOptions>;
  /** The options of a store in `database`, as the store user. */
  storeOptions(database: string): MysqlStoreOptions;
  close(): Promise<void>;
}

export async function startResultsServer(prefix: string): Promise<ResultsServer> {
  // relaxed: binlog on, as most servers run. On tmpfs: every test makes two dozen tables, each a few fsyncs on disk.
  const scratch = await startScratchServer({ profile: 'relaxed', prefix, parent: '/dev/shm' });
  let admin: Connection | undefined;
  try {
    admin = await createConnection({ socketPath: scratch.socket, user: 'root' });
    await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [STORE_USER, 'localhost', STORE_PASSWORD]);
    // `_` is a wildcard in a grant's database name: every database whose name starts with the prefix.
    await admin.query(`GRANT ALL PRIVILEGES ON \`${DATABASE_PREFIX}%\`.* TO ?@?`, [STORE_USER, 'localhost']);
  } catch (err) {
    await admin?.end().catch(() => undefined);
    await scratch.close();
    throw err;
  }
  const connected = admin;
  let counter = 0;
  const storeOptions = (database: string): MysqlStoreOptions => ({
    backend: 'mysql',
    socket: scratch.socket,
    user: STORE_USER,
    password: STORE_PASSWORD,
    database,
  });
  return {
    scratch,
    admin: connected,
    storeOptions,
    async freshDatabase() {
      const database = `${DATABASE_PREFIX}${process.pid}_${++counter}`;
      await connected.query(`CREATE DATABASE \`${database}\``);
      return storeOptions(database);
    },
    async close() {
      try {
        await connected.end();
      } finally {
        await scratch.close();
      }
    },
  };
}

/** Opens the store, runs body on it, and closes it whatever body does. */
export async function withMysqlStore<T>(options: MysqlStoreOptions, body: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(options);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}
