import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import type { Store } from '../store/index.js';

export interface StrayProcess {
  pid: number;
  sessionId: number;
  /** The program, for the log: mariadbd, sysbench, mariadb-install-db... */
  program: string;
}

export interface StrayOptions {
  procDir?: string;
  /** How long SIGTERM has before SIGKILL; mysqld needs a few seconds to shut InnoDB down. */
  graceMs?: number;
}

/**
 * A daemon killed with SIGKILL leaves its session's mysqld and sysbench running: exec starts each in its own
 * process group, so they are not killed with the daemon and are adopted by init. They are found again by their
 * command lines, which name the session's work folder (--defaults-file) or its socket, and stopped by escalation;
 * only sessions that are no longer running are touched, so a live `qpswatch compare` keeps its servers.
 */
export async function stopStrayProcesses(config: Config, store: Store, log: Logger, opts: StrayOptions = {}): Promise<StrayProcess[]> {
  const running = new Set((await store.listSessions({ limit: 1000, state: 'running' })).map((s) => s.id));
  const strays = findStrays(config, opts.procDir ?? '/proc').filter((p) => !running.has(p.sessionId));
  if (strays.length === 0) return [];
  for (const p of strays) log.warn({ pid: p.pid, sessionId: p.sessionId, program: p.program }, 'a process of an interrupted session is still running: stopping it');
  await Promise.all(strays.map((p) => stopProcess(p.pid, opts.procDir ?? '/proc', opts.graceMs ?? 60_000, log)));
  // Their datadirs are big and of no use; the logs stay for people to read.
  for (const sessionId of new Set(strays.map((p) => p.sessionId))) await removeSessionData(join(config.state_dir, 'work', `session-${sessionId}`));
  return strays;
}

function findStrays(config: Config, procDir: string): StrayProcess[] {
  const patterns = [
    new RegExp(`${escape(join(config.state_dir, 'work'))}/session-(\\d+)/`),
    new RegExp(`${escape(join(config.state_dir, 'run'))}/(\\d+)-[a-z]\\.sock`),
  ];
  const out: StrayProcess[] = [];
  for (const name of readdirSync(procDir)) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const argv = readArgv(join(procDir, name));
    if (argv === undefined || isZombie(join(procDir, name))) continue;
    const line = argv.join(' ');
    const match = patterns.map((p) => p.exec(line)).find((m) => m !== null);
    if (match) out.push({ pid: Number(name), sessionId: Number(match[1]), program: argv[0]?.split('/').pop() ?? '?' });
  }
  return out;
}

function readArgv(dir: string): string[] | undefined {
  try {
    return readFileSync(join(dir, 'cmdline'), 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    // Gone meanwhile, or not ours to read.
    return undefined;
  }
}

/** A stopped orphan stays a zombie until init reaps it; it holds nothing any more. */
function isZombie(dir: string): boolean {
  try {
    const stat = readFileSync(join(dir, 'stat'), 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

async function stopProcess(pid: number, procDir: string, graceMs: number, log: Logger): Promise<void> {
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (isZombie(join(procDir, String(pid)))) return;
    await sleep(100);
  }
  log.warn({ pid, graceMs }, 'the stray process ignored SIGTERM; sending SIGKILL');
  signal(pid, 'SIGKILL');
  while (!isZombie(join(procDir, String(pid)))) await sleep(100);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

async function removeSessionData(sessionDir: string): Promise<void> {
  const dirs = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory());
    } catch {
      return [];
    }
  };
  const roles = dirs(sessionDir);
  for (const role of roles) {
    for (const target of dirs(join(sessionDir, role.name))) {
      for (const part of ['data', 'snapshot', 'tmp']) await rm(join(sessionDir, role.name, target.name, part), { recursive: true, force: true });
    }
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
