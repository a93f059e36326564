import { defaultSqlitePath, openStore, type Store } from '../store/index.js';
import type { CommandContext } from './command.js';

/** A process that died mid-session left it `running`; that is fixed first, so nothing reads it as live. */
export async function openStateStore(ctx: CommandContext): Promise<Store> {
  const store = await openStore({ backend: ctx.config.store_backend, path: defaultSqlitePath(ctx.config.state_dir) });
  const interrupted = await store.recoverInterrupted(isAlive);
  if (interrupted > 0) ctx.log.warn({ sessions: interrupted }, 'sessions left running by a process that is gone are now marked interrupted');
  return store;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
