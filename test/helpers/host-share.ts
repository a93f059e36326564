import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { projectRoot } from './paths.js';

/**
 * The test run's share of the host, taken by every test file before it starts (scripts/test.sh preloads this module
 * with --import). Files run two at a time; the ones listed in ALONE hold the host alone, so nothing runs beside them:
 * their assertions depend on measured performance (verdicts of real sysbench sessions, detectable drops, wall-clock
 * bounds), or they use something host-wide (cgroups, the CPU idle states, process scans). Every other file holds a
 * shared lock, so it waits while an ALONE file runs and runs beside any other shared file.
 *
 * The lock is flock(2) on a file in dist/, taken by util-linux's flock(1) on a descriptor this process opened and
 * passes it: a flock belongs to the open file description, which stays open here after flock(1) exits, so the lock
 * lasts exactly as long as the test file's process, however that process ends.
 */
export const ALONE: Readonly<Record<string, string>> = {
  'integration/bisect.test.ts': 'a verdict of a real paired session at every step of the bisection',
  'integration/build-demo.test.ts': 'a warm ccache build must beat the cold one on the clock',
  'integration/build-variants.test.ts': 'relative QPS and wKB/o of a real session between two builds',
  'integration/build-worktree.test.ts': 'a wall-clock bound on stopping a build, and pgrep over the whole host',
  'integration/calibrate.test.ts': 'measures the pair noise and seconds per pair of this host',
  'integration/check-release.test.ts': 'a regression verdict, its hint and per-op ratios of real sessions',
  'integration/compare-interrupt.test.ts': 'a wall-clock bound on stopping after SIGINT',
  'integration/compare-levels.test.ts': 'regression verdicts at two concurrency levels',
  'integration/compare-memory.test.ts': 'host-wide disk reads per op of the cached setting',
  'integration/compare-paired.test.ts': 'verdicts decided at given numbers of pairs',
  'integration/compare.test.ts': 'the relative QPS of a real session',
  'integration/daemon.test.ts': 'timer precision and a stop within a wall-clock bound',
  'integration/faults-session.test.ts': 'wall-clock bounds on stopping a session',
  'integration/fleet.test.ts': 'verdicts of real sessions of two daemons at once, and a claim that lapses in time',
  'integration/installed-cli.test.ts':
    'holds the real PM QoS device; its session runs as nobody on the default host lock',
  'integration/notify-smtp.test.ts': 'wall-clock bounds on SMTP timeouts',
  'integration/outbox-smtp-faults.test.ts': 'wall-clock bounds on SMTP faults and SIGTERM',
  'integration/paired-drift.test.ts': 'cgroup CPU quotas, and an ok verdict under them',
  'integration/profile.test.ts': 'the share of the fsync path in perf samples of two real servers',
  'integration/prometheus.test.ts': 'a regression alert from a real session',
  'integration/releases.test.ts': 'the relative QPS and wKB/o of a real session',
  'integration/tarball-upstream.test.ts': 'a regression emailed from a real session',
  'integration/upstream-bad-input.test.ts': 'wall-clock bounds on unreachable remotes',
  'unit/daemon/outbox-timer.test.ts': 'a message sent within 1.5 s of its time, a stop within 1 s',
  'unit/sampling/fingerprint.test.ts': 'a wall-clock bound on the host inventory (slower under load)',
  'unit/sampling/inventory.test.ts': 'wall-clock bounds on the host inventory (slower under load)',
};

const LOCK_FILE = join(projectRoot, 'dist', 'test-host.lock');

/** Whether the compiled test file (under dist/test/, absolute or relative to the project) runs alone. */
export function runsAlone(compiledFile: string): boolean {
  const source = relative(join(projectRoot, 'dist', 'test'), resolve(projectRoot, compiledFile)).replace(
    /\.js$/,
    '.ts',
  );
  return ALONE[source] !== undefined;
}

/** Waits for the host share this test file needs; resolves once this process holds it. */
export function holdHostShare(compiledFile: string): Promise<void> {
  const mode = runsAlone(compiledFile) ? '--exclusive' : '--shared';
  // Left open on purpose: closing it would let go of the lock before the file's tests end.
  const fd = openSync(LOCK_FILE, 'a');
  const locker = spawn('flock', [mode, '3'], { stdio: ['ignore', 'ignore', 'pipe', fd] });
  let said = '';
  locker.stderr?.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  return new Promise((resolve, reject) => {
    locker.once('error', reject);
    locker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`flock ${mode} ${LOCK_FILE}: exit ${code}: ${said.trim()}`)),
    );
  });
}
