import { accessSync, constants } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';
import { processAlive } from '../exec/index.js';
import { SERVICE_CONFIG } from '../config/index.js';
import { defaultSqlitePath, openStore, SchemaTooOldError, type Store } from '../store/index.js';
import type { CommandContext } from './command.js';

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
  if (options.readonly === true) return openReadOnly(ctx, path);
  const store = await openStore({ backend: ctx.config.store_backend, path });
  // Sessions record a pid only: a pid reused since counts as alive, and the session is recovered on a later open.
  const interrupted = await store.recoverInterrupted((pid, startTicks) => processAlive(pid, startTicks));
  if (interrupted > 0)
    ctx.log.warn(
      { sessions: interrupted },
      'sessions left running by a process that is gone are now marked interrupted',
    );
  return store;
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
    return await openStore({ backend: ctx.config.store_backend, path, readonly: true });
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
