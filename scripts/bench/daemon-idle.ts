// The real daemon at rest: started as a user starts it, on an empty temp state dir with a far-away schedule, and
// watched from outside through /proc, so the figures include everything its process does while it waits.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultEnv, run, start, type ChildHandle } from '../../src/exec/index.js';
import { median } from '../../src/analysis/index.js';
import { projectRoot } from '../../src/paths.js';

/** USER_HZ: the unit of utime and stime in /proc/PID/stat; 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface IdleFigures {
  port: number;
  startMs: number;
  /** From /healthz to the window's start; CPU spent from exec until then is startUpCpuSeconds. */
  settleSeconds: number;
  startUpCpuSeconds: number;
  seconds: number;
  rssBytes: { median: number; max: number; first: number; last: number };
  cpuSeconds: number;
}

/** Whether the built CLI (dist/) has the daemon command yet: `qpswatch daemon --help` exits 0 only then. */
export async function daemonAvailable(): Promise<boolean> {
  const result = await run({
    argv: [process.execPath, join(projectRoot, 'bin', 'qpswatch.js'), 'daemon', '--help'],
    cwd: projectRoot,
    allowFailure: true,
    timeoutMs: 30_000,
  });
  return result.exitCode === 0;
}

export async function measureIdleDaemon(
  dir: string,
  seconds: number,
  settleSeconds: number,
  say: (line: string) => void,
): Promise<IdleFigures> {
  const port = await freePort();
  const config = join(dir, 'daemon.yaml');
  // An upstream with no tags: the catch-up poll at start finds nothing to build. Feb 29 at 03:33: the schedule does
  // not fire during the measurement.
  const remote = join(dir, 'upstream.git');
  await run({ argv: ['git', 'init', '--quiet', '--bare', remote], timeoutMs: 30_000 });
  const upstream = {
    name: 'mariadb-10.11',
    remote,
    flavor: 'mariadb',
    series: '10.11',
    build_profile: 'mariadb-rel',
    server_profile: 'relaxed',
  };
  const lines = [
    `state_dir: ${JSON.stringify(join(dir, 'state'))}`,
    `host_lock: ${JSON.stringify(join(dir, 'host.lock'))}`,
    "schedule: '33 3 29 2 *'",
    `metrics_port: ${port}`,
    'log_level: warn',
    `upstreams: [${JSON.stringify(upstream)}]`,
  ];
  writeFileSync(config, `${lines.join('\n')}\n`);
  const started = Date.now();
  const daemon = start({
    argv: [process.execPath, join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, 'daemon'],
    cwd: projectRoot,
    env: defaultEnv(),
    timeoutMs: (seconds + 120) * 1000,
    logFile: join(dir, 'daemon.log'),
  });
  try {
    await waitForHealthz(`http://127.0.0.1:${port}/healthz`, daemon);
    const startMs = Date.now() - started;
    say(`daemon up in ${startMs} ms (pid ${daemon.pid}); settling ${settleSeconds} s, then idling ${seconds} s`);
    // Start-up is not idling: the catch-up poll, the first metrics render, and V8's memory reducer, which 8 s or so
    // after start collects the start-up garbage in a few full GCs (about 0.1 s of CPU). Its cost is reported apart.
    await sleep(settleSeconds * 1000);
    const rss: number[] = [rssBytes(daemon.pid)];
    const cpuBefore = cpuTicks(daemon.pid);
    for (let s = 0; s < seconds; s++) {
      await sleep(1000);
      rss.push(rssBytes(daemon.pid));
    }
    const cpuSeconds = (cpuTicks(daemon.pid) - cpuBefore) / CLOCK_TICKS_PER_SECOND;
    return {
      port,
      startMs,
      settleSeconds,
      startUpCpuSeconds: cpuBefore / CLOCK_TICKS_PER_SECOND,
      seconds,
      rssBytes: { median: median(rss), max: Math.max(...rss), first: rss[0]!, last: rss.at(-1)! },
      cpuSeconds,
    };
  } finally {
    const end = await daemon.stop(15_000);
    say(`daemon stopped (exit ${end.exitCode ?? end.signal})`);
  }
}

export async function waitForHealthz(url: string, daemon: ChildHandle): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  daemon.exited.then(
    () => (exited = true),
    () => (exited = true),
  );
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(url);
      await res.text();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(
    `the daemon did not answer ${url} ${exited ? 'and exited' : 'within 60 s'}: ${daemon.tail().slice(-5).join(' | ')}`,
  );
}

/**
 * What Node itself and the libraries cost, measured like the daemon (after the same settle): a bare Node process, and
 * one that loads the libraries an idle daemon loads and does what it does with them (floor-process.ts). The daemon's
 * RSS above the second is qpswatch's own.
 */
export async function measureFloor(
  settleSeconds: number,
  say: (line: string) => void,
): Promise<{ bareBytes: number; librariesBytes: number }> {
  const script = join(projectRoot, 'dist', 'scripts', 'bench', 'floor-process.js');
  const procs = (['bare', 'libraries'] as const).map((mode) =>
    start({
      argv: [process.execPath, script, mode],
      cwd: projectRoot,
      env: defaultEnv(),
      timeoutMs: (settleSeconds + 60) * 1000,
    }),
  );
  let exited = false;
  for (const p of procs)
    p.exited.then(
      () => (exited = true),
      () => (exited = true),
    );
  try {
    say(`floor: a bare Node process and one with the libraries only; settling ${settleSeconds} s`);
    await sleep(settleSeconds * 1000);
    if (exited)
      throw new Error(`a floor process exited early: ${procs.flatMap((p) => p.tail().slice(-3)).join(' | ')}`);
    return { bareBytes: rssBytes(procs[0]!.pid), librariesBytes: rssBytes(procs[1]!.pid) };
  } finally {
    await Promise.all(procs.map((p) => p.stop(5000)));
  }
}

function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(match[1]) * 1024;
}

/** utime + stime; the fields after the command name, which may itself hold spaces and parentheses. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15.
  return Number(fields[11]) + Number(fields[12]);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
