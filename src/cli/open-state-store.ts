import { accessSync, constants } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';
import { processAlive } from '../exec/index.js';
import { parseStoreUrl, SERVICE_CONFIG, type Config } from '../config/index.js';
import {
  defaultSqlitePath,
  openStore,
  SchemaTooOldError,
  type MysqlStoreOptions,
  type Store,
  type StoreOptions,
} from '../store/index.js';
import type { CommandContext } from './command.js';
import { makeStateFolder } from './state-folders.js';

export interface OpenStateStoreOptions {
  /**
   * For commands that only read (status, sessions, show, report, export, outbox): the store is opened read-only, so an
   * operator who may read but not write it can use them, and nothing is created, migrated or recovered.
   */
  readonly?: boolean;
}

/** A process that died mid-session left it `running`; that is fixed first, so nothing reads it as live. */
export async function openStateStore(ctx: CommandContext, options: OpenStateStoreOptions = {}): Promise<Store> {
  const path = defaultSqlitePath(ctx.config.state_dir);
  if (options.readonly === true)
    return ctx.config.store_backend === 'mysql' ? openMysqlReadOnly(ctx) : openReadOnly(ctx, path);
  makeStateFolder(ctx.config);
  const store = await openStore(storeOptions(ctx.config));
  // Sessions record a pid only: a pid reused since counts as alive, and the session is recovered on a later open.
  const interrupted = await store.recoverInterrupted(ctx.config.host_name, (pid, startTicks) =>
    processAlive(pid, startTicks),
  );
  if (interrupted > 0)
    ctx.log.warn(
      { sessions: interrupted },
      'sessions left running by a process that is gone are now marked interrupted',
    );
  return store;
}

/** The store the config names, for reading only or (by default) for writing. */
export function storeOptions(config: Config, readonly = false): StoreOptions {
  if (config.store_backend === 'sqlite')
    return { backend: 'sqlite', path: defaultSqlitePath(config.state_dir), readonly };
  return { ...mysqlOptions(config), readonly };
}

/**
 * A MySQL store from an older qpswatch is migrated by a command that only reads too, as SQLite's is when the user may
 * write it: whether the database user may is only known by trying, and the server says so in one line if not.
 */
async function openMysqlReadOnly(ctx: CommandContext): Promise<Store> {
  try {
    return await openStore(storeOptions(ctx.config, true));
  } catch (err) {
    if (err instanceof SchemaTooOldError) return openStateStore(ctx);
    throw err;
  }
}

/** The MySQL store the config names (store_url, or store_host, store_port or store_socket, and so on). */
export function mysqlOptions(config: Config): MysqlStoreOptions {
  // store_url was checked when the config was read; it names the user, server and database in one.
  const url = config.store_url === '' ? undefined : parseStoreUrl(config.store_url);
  return {
    backend: 'mysql',
    user: url?.user ?? config.store_user,
    host: url?.host ?? config.store_host,
    port: url?.port ?? config.store_port,
    database: url?.database ?? config.store_database,
    ...(config.store_socket !== '' && url === undefined ? { socket: config.store_socket } : {}),
    ...(config.store_password !== '' ? { password: config.store_password } : {}),
    tls: config.store_tls,
    ...(config.store_tls_ca !== '' ? { tlsCa: config.store_tls_ca } : {}),
  };
}

async function openReadOnly(ctx: CommandContext, path: string): Promise<Store> {
  const access = storeAccess(path);
  if (access === 'denied') throw new StoreUnreadableError(path);
  if (access === 'missing') {
    const config = ctx.configFile ?? `none (no --config, no QPSWATCH_CONFIG, no ${SERVICE_CONFIG})`;
    throw new InputError(
      `no store at ${path}: nothing was recorded with state_dir ` +
        `${ctx.config.state_dir} (config: ${config}); name the config the ` +
        `daemon uses with --config`,
    );
  }
  try {
    return await openStore({ backend: 'sqlite', path, readonly: true });
  } catch (err) {
    // A store from an older qpswatch is migrated when this user may write it, as any other command would.
    if (err instanceof SchemaTooOldError && canWrite(path)) return openStateStore(ctx);
    throw err;
  }
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(path), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A reader who may not read the store: the folder or the file is closed to them (0750 and 0640, another group). */
export class StoreUnreadableError extends InputError {
  constructor(readonly path: string) {
    const user = userName();
    super(
      `cannot read the store ${path} as user ${user}: permission denied; add ` +
        `${user} to the group of ${dirname(path)} (the service's is qpswatch: ` +
        `usermod -aG qpswatch ${user}), or run as the store's owner`,
    );
  }
}

/** Whether this user may read the store; EACCES on the file or a folder above it is told apart from a missing store. */
function storeAccess(path: string): 'ok' | 'missing' | 'denied' {
  try {
    accessSync(path, constants.R_OK);
    return 'ok';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'denied' : 'missing';
  }
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}
