import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log/index.js';
import { isZombie } from './process-info.js';

/** stopped: gone (or a zombie); denied: this user may not signal it (EPERM); stuck: it outlived SIGKILL's wait. */
export type StopOutcome = 'stopped' | 'denied' | 'stuck';

export interface StopProcessOptions {
  procDir?: string;
  /** How long SIGTERM has before SIGKILL; mysqld needs a few seconds to shut InnoDB down. Default 60 s. */
  graceMs?: number;
  /**
   * How long a process may take to go after SIGKILL before it is given up on (it may hang in the kernel). Default 30 s.
   */
  killWaitMs?: number;
  /**
   * Signal the whole process group the pid leads (a build's cmake with its make and compilers): exec starts every
   * child as a group leader. Members still there when the leader is gone get SIGKILL.
   */
  group?: boolean;
}

/**
 * Stops a process that is not a child of this one (a server a killed daemon left) by escalation: SIGTERM, a grace
 * time, SIGKILL, a bounded wait. A child started by `start` is stopped by its handle instead. A process this user
 * may not signal is never waited for.
 */
export async function stopProcess(pid: number, opts: StopProcessOptions, log: Logger): Promise<StopOutcome> {
  const procDir = opts.procDir ?? '/proc';
  const graceMs = opts.graceMs ?? 60_000;
  const target = opts.group === true ? -pid : pid;
  const term = signal(target, 'SIGTERM');
  if (term !== 'sent') return term === 'gone' ? 'stopped' : 'denied';
  if (await gone(pid, procDir, graceMs)) {
    if (opts.group === true) signal(target, 'SIGKILL');
    return 'stopped';
  }
  log.warn({ graceMs }, 'the process ignored SIGTERM; sending SIGKILL');
  const kill = signal(target, 'SIGKILL');
  if (kill !== 'sent') return kill === 'gone' ? 'stopped' : 'denied';
  return (await gone(pid, procDir, opts.killWaitMs ?? 30_000)) ? 'stopped' : 'stuck';
}

async function gone(pid: number, procDir: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (isZombie(pid, procDir)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
}

/** A negative pid names a process group. */
function signal(pid: number, name: NodeJS.Signals): 'sent' | 'gone' | 'denied' {
  try {
    process.kill(pid, name);
    return 'sent';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'denied' : 'gone';
  }
}
