// CPU quotas through the cgroup v1 cpu controller: a real, repeatable slowdown of one server (bench:power) or of both
// at once (the drift test). Root only. The servers are found by the pid files qpswatch writes in a session's folders.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup/cpu';
// 25 ms periods. What was tried for the drift test (two servers, each in its own group, cut to a share of a CPU
// mid-session, pairs of 1-second runs), by the noise of a pair once throttled:
// - 10 ms at 10% (1 ms): both servers stalled for up to a second per run for half a minute after the cut;
// - 20 ms at 20% and 50 ms at 20%: about 10%;
// - 100 ms (the kernel's default) at 10%: 2 to 5%, but a run's start within a period then decides whether it
//   waits out most of one (up to 90 ms of a 1-second run), and the pairs drifted apart;
// - 25 ms at 20% (5 ms, the kernel's default bandwidth slice): 3%, 40 periods per 1-second run.
const PERIOD_US = 25_000;

export interface CpuGroup {
  readonly dir: string;
  /** The share of one CPU the group may use per period, in percent; 0 or less lifts the limit. */
  setQuota(percentOfOneCpu: number): void;
  add(pid: number): void;
  /** Moves what is left back to the root group and removes this one; idempotent. */
  remove(): void;
}

export function cpuQuotaAvailable(): boolean {
  return existsSync(join(ROOT, 'cpu.cfs_quota_us')) && process.getuid?.() === 0;
}

export function createCpuGroup(name: string): CpuGroup {
  if (!/^[a-z0-9-]+$/.test(name))
    throw new Error(`cpu group name ${JSON.stringify(name)}: expected lower-case letters, digits and -`);
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
  let removed = false;
  return {
    dir,
    setQuota(percent) {
      writeFileSync(
        join(dir, 'cpu.cfs_quota_us'),
        percent > 0 ? String(Math.round((PERIOD_US * percent) / 100)) : '-1',
      );
    },
    add(pid) {
      writeFileSync(join(dir, 'cgroup.procs'), String(pid));
    },
    remove() {
      if (removed) return;
      removed = true;
      for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          writeFileSync(join(ROOT, 'cgroup.procs'), pid);
        } catch {
          // Gone already.
        }
      }
      rmdirSync(dir);
    },
  };
}

/** Waits for the server pid files of the newest session under stateDir: { baseline, candidate } pids. */
export async function serverPids(
  stateDir: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ baseline: number; candidate: number }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    const found = { baseline: pidOf(stateDir, 'baseline'), candidate: pidOf(stateDir, 'candidate') };
    if (found.baseline !== undefined && found.candidate !== undefined)
      return { baseline: found.baseline, candidate: found.candidate };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no baseline and candidate server pid files under ${stateDir}/work within ${timeoutMs / 1000} s`);
}

export type ServerRole = 'baseline' | 'candidate';

/**
 * Follows the servers of the newest session under stateDir until signal aborts, moving each into its role's group
 * (if the role has one) and calling onPoll with the instances alive now. A paired session starts a new instance of
 * each server every instance block, and a new process starts outside any group: it is moved in within 100 ms.
 * Resolves with the number of processes moved, once aborted.
 */
export async function followServers(
  stateDir: string,
  groups: Partial<Record<ServerRole, CpuGroup>>,
  signal: AbortSignal,
  onPoll?: (pids: Partial<Record<ServerRole, number>>) => void,
): Promise<number> {
  const moved = new Set<number>();
  while (!signal.aborted) {
    const alive: Partial<Record<ServerRole, number>> = {};
    for (const role of ['baseline', 'candidate'] as const) {
      const pid = pidOf(stateDir, role);
      if (pid === undefined) continue;
      alive[role] = pid;
      const group = groups[role];
      if (group === undefined || moved.has(pid)) continue;
      try {
        group.add(pid);
        moved.add(pid);
      } catch {
        // The instance ended between its pid file and the move: the next one is moved instead.
      }
    }
    onPoll?.(alive);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return moved.size;
}

function pidOf(stateDir: string, role: string): number | undefined {
  const work = join(stateDir, 'work');
  if (!existsSync(work)) return undefined;
  const sessions = readdirSync(work)
    .filter((d) => d.startsWith('session-'))
    .sort((a, b) => Number(b.slice(8)) - Number(a.slice(8)));
  for (const session of sessions.slice(0, 1)) {
    const roleDir = join(work, session, role);
    if (!existsSync(roleDir)) continue;
    for (const target of readdirSync(roleDir)) {
      const file = join(roleDir, target, 'mysqld.pid');
      if (!existsSync(file)) continue;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && existsSync(`/proc/${pid}`)) return pid;
    }
  }
  return undefined;
}
