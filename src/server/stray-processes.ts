import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  isZombie,
  otherPids,
  processAlive,
  processArgv,
  processGroup,
  processSession,
  processUid,
  stopProcess,
  userId,
  type StopProcessOptions,
} from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { DEFAULT_SERVER_USER } from './user.js';
import type { SessionStore } from '../store/index.js';

export interface StrayProcess {
  pid: number;
  sessionId: number;
  /** The program, for the log: mariadbd, sysbench, mariadb-install-db... */
  program: string;
  uid: number;
}

/** Where /proc is, and the grace times of the escalation (exec's stopProcess). */
export type StrayOptions = StopProcessOptions;

/** The programs qpswatch starts with a session's paths on their command line; nothing else is ever stopped. */
export const STRAY_PROGRAMS: ReadonlySet<string> = new Set([
  'mysqld',
  'mariadbd',
  'mysqld_safe',
  'mariadbd-safe',
  'mariadb-install-db',
  'mysql_install_db',
  'sysbench',
]);
// A script (mariadb-install-db is one) shows its interpreter first and its own path second; a server the
// instructions lane runs under valgrind shows valgrind's program first, and mysqld after valgrind's options.
const INTERPRETERS = new Set(['sh', 'bash', 'dash', 'perl', 'env', 'valgrind', 'valgrind.bin']);

/**
 * A daemon killed with SIGKILL leaves its session's mysqld and sysbench running: exec starts each in its own
 * process group, so they are not killed with the daemon and are adopted by init. They are found again and stopped
 * by escalation, and a process counts only when all of these hold, so nobody else's process is ever touched (such
 * as a person's `tail -f` of a session's error log):
 * - it runs as the user qpswatch runs as, or as server_user;
 * - its command line names a session's work folder (--defaults-file) or its socket, of a session no longer running;
 * - it is one of the programs qpswatch starts (STRAY_PROGRAMS);
 * - it leads its own process group, or its group leader is such a process too: exec starts every child as the
 *   leader of a new group, and what a child starts (mariadb-install-db's mariadbd) stays in that group;
 * - that group is a session of its own, with no terminal: exec starts each child with setsid, while a person's
 *   `sysbench` or `mysqld` run from a shell (root's, in a worktree or on a session's socket) is a job in the
 *   shell's session and leads a group there.
 * A process this user may not signal (EPERM) is given up on with a warning, never waited for.
 */
/** Where qpswatch's sessions run, and the user its servers run as (server_user, '' when none). */
export interface StrayScope {
  stateDir: string;
  serverUser: string;
}

export async function stopStrayProcesses(
  scope: StrayScope,
  store: Pick<SessionStore, 'listSessions'>,
  log: Logger,
  opts: StrayOptions = {},
): Promise<StrayProcess[]> {
  const running = new Set((await store.listSessions({ limit: 1000, state: 'running' })).map((s) => s.id));
  const strays = findStrays(scope.stateDir, ownUids(scope.serverUser), opts.procDir ?? '/proc').filter(
    (p) => !running.has(p.sessionId),
  );
  if (strays.length === 0) return [];
  for (const p of strays)
    log.warn(
      { strayPid: p.pid, sessionId: p.sessionId, program: p.program },
      'a process of an interrupted session is still running: stopping it',
    );
  const stopped = await Promise.all(strays.map((p) => stopStray(p, opts, log)));
  // Their datadirs are big and of no use; the logs stay for people to read.
  const done = strays.filter((_, i) => stopped[i]);
  for (const sessionId of new Set(done.map((p) => p.sessionId)))
    await removeSessionData(join(scope.stateDir, 'work', `session-${sessionId}`));
  return done;
}

/** The users whose processes may be qpswatch's: the one it runs as, and server_user (mysqld's --user). */
export function ownUids(serverUser: string): Set<number> {
  const uids = new Set<number>();
  const self = process.getuid?.();
  if (self !== undefined) uids.add(self);
  // Empty server_user: as root the server runs as mysql (it never runs as root), else as qpswatch's own user.
  const server = userId(serverUser !== '' ? serverUser : self === 0 ? DEFAULT_SERVER_USER : '');
  if (server !== undefined) uids.add(server);
  return uids;
}

interface Candidate extends StrayProcess {
  group: number | undefined;
  /** Its session is its group, with no terminal: started as exec starts a child (setsid). */
  detached: boolean;
}

/** The processes of `uids` under `stateDir` that qpswatch started (see stopStrayProcesses), in pid order. */
export function findStrays(stateDir: string, uids: ReadonlySet<number>, procDir = '/proc'): StrayProcess[] {
  const patterns = [
    new RegExp(`${escape(join(stateDir, 'work'))}/session-(\\d+)/`),
    new RegExp(`${escape(join(stateDir, 'run'))}/(\\d+)-[a-z]\\.sock`),
  ];
  const candidates = new Map<number, Candidate>();
  for (const pid of otherPids(procDir)) {
    const uid = processUid(pid, procDir);
    if (uid === undefined || !uids.has(uid)) continue;
    const argv = processArgv(pid, procDir);
    if (argv === undefined || isZombie(pid, procDir)) continue;
    const program = programOf(argv);
    if (!STRAY_PROGRAMS.has(program)) continue;
    const match = patterns.map((p) => p.exec(argv.join(' '))).find((m) => m !== null);
    if (!match) continue;
    const group = processGroup(pid, procDir);
    const session = processSession(pid, procDir);
    candidates.set(pid, {
      pid,
      sessionId: Number(match[1]),
      program,
      uid,
      group,
      detached: session !== undefined && session.session === group && !session.hasTerminal,
    });
  }
  return [...candidates.values()]
    .filter((c) => c.detached && c.group !== undefined && (c.group === c.pid || candidates.has(c.group)))
    .map(({ pid, sessionId, program, uid }) => ({ pid, sessionId, program, uid }));
}

/** The program a command line runs: its first word, or the script an interpreter runs. */
function programOf(argv: readonly string[]): string {
  const first = basename(argv[0] ?? '');
  if (!INTERPRETERS.has(first)) return first;
  const script = argv.slice(1).find((a) => !a.startsWith('-'));
  return script === undefined ? first : basename(script);
}

/** Stops one stray by escalation (exec's stopProcess); false, with a warning, when it could not be stopped. */
export async function stopStray(p: StrayProcess, opts: StrayOptions, log: Logger): Promise<boolean> {
  const strayLog = log.child({ strayPid: p.pid, program: p.program });
  const outcome = await stopProcess(p.pid, opts, strayLog);
  if (outcome === 'denied')
    strayLog.warn(
      { uid: p.uid },
      'not allowed to stop a stray process (EPERM): leaving it; stop it as its owner or as root',
    );
  if (outcome === 'stuck')
    strayLog.warn('the stray process did not go after SIGKILL (stuck in the kernel?): leaving it');
  return outcome === 'stopped';
}

/** What a target's folder holds while its session runs and a finished session no longer does (TargetInstance). */
const SESSION_DATA = ['data', 'snapshot', 'tmp', 'files', 'sysbench.cnf'];

/**
 * Removes the datadirs, snapshots and password files (sysbench.cnf) under a session's (or a profile run's) folder,
 * <dir>/<role>/<target>/...; the logs and my.cnf stay for people to read. Returns whether anything was there.
 */
async function removeSessionData(sessionDir: string): Promise<boolean> {
  const dirs = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory());
    } catch {
      return [];
    }
  };
  let found = false;
  for (const role of dirs(sessionDir)) {
    for (const target of dirs(join(sessionDir, role.name))) {
      for (const part of SESSION_DATA) {
        const path = join(sessionDir, role.name, target.name, part);
        if (!existsSync(path)) continue;
        found = true;
        await rm(path, { recursive: true, force: true });
      }
    }
  }
  return found;
}

/**
 * What sessions cut off by a killed qpswatch left, cleaned before a command starts servers of its own: their servers
 * and sysbench still running (stopStrayProcesses), then the datadirs, snapshots and password files of every session
 * that is not running and of every profile run whose process is gone. Each is said in one warning line.
 */
export async function cleanUpKilledSessions(
  scope: StrayScope,
  store: Pick<SessionStore, 'listSessions'>,
  log: Logger,
  opts: StrayOptions = {},
): Promise<{ stopped: StrayProcess[]; cleaned: string[] }> {
  const stopped = await stopStrayProcesses(scope, store, log, opts);
  const running = new Set((await store.listSessions({ limit: 1000, state: 'running' })).map((s) => s.id));
  const work = join(scope.stateDir, 'work');
  const cleaned: string[] = [];
  for (const name of listFolder(work)) {
    const session = /^session-(\d+)$/.exec(name);
    const profile = /^profile-(\d+)-\d+$/.exec(name);
    const left =
      (session !== null && !running.has(Number(session[1]))) ||
      (profile !== null && !processAlive(Number(profile[1]), undefined, opts.procDir));
    if (!left || !(await removeSessionData(join(work, name)))) continue;
    cleaned.push(name);
    log.warn(
      { folder: join(work, name) },
      'a session cut off by a killed qpswatch left its datadirs and password files: removed them',
    );
  }
  return { stopped, cleaned };
}

function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
