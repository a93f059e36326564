import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Children that must not outlive qpswatch (the servers and sysbench of a session) are listed with a small reaper
 * process qpswatch starts once, on a pipe: when qpswatch dies, however it dies (SIGKILL too), the kernel closes the
 * pipe and the reaper kills the listed process groups. A parent-death signal (prctl PR_SET_PDEATHSIG, setpriv
 * --pdeathsig) cannot do this for mysqld: the kernel clears it when mysqld drops root for its --user, and it reaches
 * only the direct child, never the rest of its group (mariadb-install-db's mariadbd).
 */
const REAPER_MAIN = fileURLToPath(new URL('./reaper-main.js', import.meta.url));

let reaper: ChildProcess | undefined;

function tell(line: string): void {
  try {
    reaper ??= startReaper();
    reaper.stdin?.write(`${line}\n`);
  } catch {
    // No reaper could be started (no memory, no process slot): the group is still stopped by its own run's end; only
    // the guard against qpswatch's own sudden death is missing, and the next child tries again.
    reaper = undefined;
  }
}

function startReaper(): ChildProcess {
  const child = spawn(process.execPath, [REAPER_MAIN], {
    // A session of its own: a Ctrl-C or a kill of the terminal's process group leaves it to do its work.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    // process.execPath is absolute: the reaper needs no PATH, and gets nothing of qpswatch's environment.
    env: {},
    cwd: '/',
  });
  // Neither the reaper nor its pipe keeps qpswatch running: at exit the pipe closes and the reaper ends.
  child.unref();
  child.stdin?.on('error', () => undefined);
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  const gone = (): void => {
    if (reaper === child) reaper = undefined;
  };
  child.on('exit', gone);
  // A spawn that fails (EAGAIN, EMFILE) is reported as an event: without a listener it would end qpswatch.
  child.on('error', gone);
  return child;
}

/** The group `pgid` (a child exec started, its leader) is killed if qpswatch dies before it ends. */
export function reapWithParent(pgid: number): void {
  tell(`+${pgid}`);
}

/** The group ended (or was stopped) normally: the reaper forgets it, so a reused id is never killed. */
export function forgetGroup(pgid: number): void {
  if (reaper !== undefined) tell(`-${pgid}`);
}
