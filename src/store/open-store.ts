import { join } from 'node:path';
import { UnknownStoreBackendError } from './errors.js';
import { openMysqlStore, type MysqlStoreOptions } from './mysql/index.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite/index.js';
import type { Store } from './store.js';

/** One entry per backend: this union and the map below. */
export type StoreOptions = SqliteStoreOptions | MysqlStoreOptions;
export type StoreBackend = StoreOptions['backend'];

type Opener<B extends StoreBackend> = (options: Extract<StoreOptions, { backend: B }>) => Promise<Store>;

const backends: { [B in StoreBackend]: Opener<B> } = {
  sqlite: openSqliteStore,
  mysql: openMysqlStore,
};

export const storeBackends = Object.keys(backends) as StoreBackend[];

/** Opens the configured backend. The name is checked at run time too, since it usually comes from a config file. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const name: string = options.backend;
  if (!Object.hasOwn(backends, name)) throw new UnknownStoreBackendError(name, storeBackends);
  const open = backends[name as StoreBackend] as (options: StoreOptions) => Promise<Store>;
  return open(options);
}

/** Where the SQLite store lives when the config names only the state directory. */
export function defaultSqlitePath(stateDirectory: string): string {
  return join(stateDirectory, 'qpswatch.sqlite');
}
