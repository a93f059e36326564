import { ServerDiedError } from './errors.js';
import { pickLogErrors, readLogSince } from './log-tail.js';
import type { RunningServer } from './running.js';

/**
 * Why a run against the server failed, when the server is the cause: it ended (or ends within `waitMs`: a crash
 * takes a moment to be reaped) without qpswatch stopping it. undefined while it still runs.
 */
export async function serverDeath(
  server: Pick<RunningServer, 'pid' | 'exited' | 'errorLog'>,
  waitMs: number,
): Promise<ServerDiedError | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const stillRunning = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  const exit = await Promise.race([server.exited, stillRunning]).finally(() => clearTimeout(timer));
  if (exit === undefined || exit.forced) return undefined;
  return new ServerDiedError(server.pid, exit, pickLogErrors(await readLogSince(server.errorLog, 0)), server.errorLog);
}
