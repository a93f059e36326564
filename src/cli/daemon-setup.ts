import {
  acquireHostLock,
  StatusTracker,
  recoverFromDeadDaemon,
  type HostLock,
  type WorkerDeps,
  cycleSettings,
  fleetSettings,
  joinFleet,
} from '../daemon/index.js';
import { ConfigError } from '../config/index.js';
import { measureCacheSizes } from '../compile/index.js';
import type { Store } from '../store/index.js';
import type { CommandContext } from './command.js';
import { openStateStore } from './open-state-store.js';
import { suiteFromFlags } from './suite-flags.js';
import { noUpstreamsError } from './no-upstreams.js';
import { checkUpstreamFiles, unreachableVerdicts } from './check-references.js';

export interface Worker {
  deps: WorkerDeps;
  store: Store;
  /** Releases the lock and closes the store; every step runs even when one throws. */
  close(): Promise<void>;
}

/**
 * What `daemon` and `once` share: the config's suite (checked before anything starts), the host lock, the store
 * with what a dead daemon left put back, and the status the phases are written to.
 */
export async function openWorker(ctx: CommandContext): Promise<Worker> {
  if (ctx.upstreams.length === 0) throw noUpstreamsError(ctx);
  const { suite, rounds } = suiteFromFlags({}, ctx);
  // Settings under which no check could reach a verdict would fail every release, one backoff after another.
  const unreachable = unreachableVerdicts(ctx.config, suite);
  if (unreachable.length > 0)
    throw new ConfigError(unreachable.map((line) => `${ctx.configFile ?? 'the config'}: ${line}`));
  // Each upstream's profiles and patches too: one another user could change is refused now, not at its first build.
  for (const upstream of ctx.upstreams) await checkUpstreamFiles(upstream, ctx.config);
  const lock: HostLock = acquireHostLock(ctx.config.host_lock);
  let store: Store | undefined;
  try {
    store = await openStateStore(ctx);
    const fleet = await joinFleet(fleetSettings(ctx.config), store, ctx.log);
    await recoverFromDeadDaemon(
      { stateDir: ctx.config.state_dir, serverUser: ctx.config.server_user, cacheDir: ctx.config.cache_dir },
      store,
      ctx.log,
      fleet,
    );
    const dirs = { cacheDir: ctx.config.cache_dir, stateDir: ctx.config.state_dir };
    const status = new StatusTracker(store, ctx.log, process.pid, {
      hostName: fleet.hostName,
      slot: fleet.slot,
      measureCacheSizes: (signal) => measureCacheSizes(dirs, signal),
    });
    const deps: WorkerDeps = {
      settings: cycleSettings(ctx.config, ctx.env),
      schedule: { cron: ctx.config.schedule, timezone: ctx.config.schedule_timezone },
      store,
      log: ctx.log,
      upstreams: ctx.upstreams,
      signal: ctx.signal,
      suite,
      rounds,
      status,
      fleet,
    };
    const opened = store;
    return { deps, store, close: () => closeAll(opened, lock, status) };
  } catch (err) {
    await closeAll(store, lock);
    throw err;
  }
}

async function closeAll(store: Store | undefined, lock: HostLock, status?: StatusTracker): Promise<void> {
  try {
    await status?.close();
    await store?.close();
  } finally {
    lock.release();
  }
}
