import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { makeDemoUpstream } from '../../scripts/demo-upstream/make.js';
import { acquireHostLock } from '../../src/daemon/index.js';
import { projectRoot } from '../../src/paths.js';
import { defaultSqlitePath, openStore, type QueueRecord, type Store } from '../../src/store/index.js';
import { messageLines, type CliResult } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { queueOneMessage } from '../helpers/outbox-store.js';
import { freePort, makeMailFolder, removeFolder, startSmtpSink } from '../helpers/smtp.js';
import { joined } from '../helpers/pattern.js';
import { ProcessWatch, reapersOf, untilNone } from '../helpers/processes.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * The daemon through the CLI a person (or systemd) uses, on the demo upstream with real git, cmake, mariadbd and
 * sysbench: one foreground cycle; a daemon killed with SIGKILL in the middle of a session and started again (the
 * session is redone, no server is left running, the broken session never counts); SIGTERM in the middle of a test
 * (a clean stop, well within systemd's TimeoutStopSec); and the bad inputs that must stop it at once.
 */
/** The daemon's host_name: the machine's host name up to its first dot (the default). */
const THIS_HOST = hostname().split('.')[0]!;
let root = '';
const configFile = () => join(root, 'qpswatch.yaml');
const stateDir = () => join(root, 'state');
const lockFile = () => join(root, 'host.lock');

interface Settings {
  tags: string[];
  suite?: string;
  schedule?: string;
  extra?: string[];
  /** More `upstreams:` entries, each one YAML flow map. */
  upstreams?: string[];
}

async function writeConfig({
  tags,
  suite = 'tiny.yaml',
  schedule = '17 * * * *',
  extra = [],
  upstreams = [],
}: Settings): Promise<void> {
  const options = new Map<string, string>([
    ['state_dir', stateDir()],
    ['server_profiles_dir', testServerProfilesDir()],
    ['cache_dir', join(root, 'cache')],
    ['log_level', 'info'],
    // A regression's profile is tested by check-release.test; here it would only add time to each cycle.
    ['profiling', 'off'],
    ['min_free_bytes', '1000000'],
    ['host_lock', lockFile()],
    ['suite', join(root, suite)],
    // The whole-run design at 2 rounds keeps these cycles short; the paired design is tested by check and compare.
    ['design', 'runs'],
    ['rounds', '2'],
    // 2 rounds reach a p-value of 1/6 at best: alpha 0.2 lets their sessions through the pre-flight check.
    ['alpha', '0.2'],
    ['schedule', `"${schedule}"`],
    // The test host is shared: the quiet-host check looks briefly and lets the session run.
    ['quiet_max_busy_percent', '100'],
    ['quiet_min_available_bytes', '0'],
    ['quiet_window_seconds', '0.2'],
    ['quiet_max_wait_seconds', '0'],
    ['metrics_port', '0'],
    ['test_thresholds', '{ update-index: 0.6, point-query: 0.6 }'],
  ]);
  for (const line of extra) options.set(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
  const upstream =
    `  - { name: demo, remote: ${join(root, 'upstream')}, flavor: mariadb, ` +
    `series: "10.11", build_profile: demo, server_profile: relaxed, ` +
    `include: ${JSON.stringify(tags)} }`;
  await writeFile(
    configFile(),
    [
      ...[...options].map(([k, v]) => `${k}: ${v}`),
      'upstreams:',
      upstream,
      ...upstreams.map((u) => `  - ${u}`),
      '',
    ].join('\n'),
  );
}

/** The CLI of the same build as this test (bin/qpswatch.js runs dist/, which may be another build). */
const ENTRY = new URL('../../src/cli/run.js', import.meta.url).pathname;
const BASE_ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: process.env['HOME'] ?? '/',
  QPSWATCH_LOG_FORMAT: 'json',
  // The instructions lane adds minutes to every check: its own tests turn it on.
  QPSWATCH_INSTRUCTION_COUNTER: 'off',
};

function runCli(args: readonly string[], opts: { env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENTRY, ...args], {
      env: { ...BASE_ENV, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const cli = (...args: string[]) => runCli(['--config', configFile(), ...args]);

/** Daemons still running: a test that fails half way must not leave its daemon holding the lock for the next. */
const running = new Set<DaemonProcess>();

/** The daemon as systemd runs it: a child process whose log lines (JSON on stderr) the test reads. */
class DaemonProcess {
  readonly child: ChildProcess;
  log = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor() {
    this.child = spawn(process.execPath, [ENTRY, '--config', configFile(), 'daemon'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: BASE_ENV,
    });
    this.child.stdout!.setEncoding('utf8').on('data', (d: string) => (this.log += d));
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.log += d));
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({ code, signal })));
    running.add(this);
    void this.exited.then(() => running.delete(this));
  }

  /** The metrics server's address, as the daemon logged it. */
  metricsUrl(): string {
    const line = this.log.split('\n').find((l) => l.includes('"metrics server listening"'));
    return (JSON.parse(line!) as { url: string }).url;
  }

  messages(): string[] {
    return this.log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  }
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 240_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function withStore<T>(body: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir()) });
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

const queued = (tag: string): Promise<QueueRecord | undefined> =>
  withStore(async (s) => (await s.listQueue()).find((q) => q.tag === tag));

/** mariadbd and sysbench processes whose command line names this test's folder: the daemon's, wherever they went. */
function serversOfThisTest(): Array<{ pid: number; program: string }> {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return [];
        const program = argv[0]?.split('/').pop() ?? '';
        return (program === 'mariadbd' || program === 'sysbench') && argv.some((a) => a.includes(root))
          ? [{ pid: Number(p), program }]
          : [];
      } catch {
        return [];
      }
    });
}

before(async () => {
  root = letServerPass(await mkdtemp('/tmp/qpsw-dmn-'));
  await makeDemoUpstream(join(root, 'upstream'));
  const suite = (name: string, seconds: number, tests: string) =>
    `name: ${name}\ndescription: daemon test\nload: { tables: 1, ` +
    `table_size: 1000 }\nwarmup: { script: oltp_read_only, seconds: 1, ` +
    `threads: 1 }\n` +
    `defaults: { seconds: ${seconds}, threads: [1] }\ntests:\n${tests}`;
  await writeFile(
    join(root, 'tiny.yaml'),
    suite(
      'tiny',
      1,
      '  - { name: update-index, script: oltp_update_index }\n  - { name: point-query, script: oltp_point_select }\n',
    ),
  );
  await writeFile(
    join(root, 'long.yaml'),
    suite('long', 120, '  - { name: point-query, script: oltp_point_select }\n'),
  );
});

afterEach(async () => {
  for (const daemon of running) {
    daemon.child.kill('SIGTERM');
    const killer = setTimeout(() => daemon.child.kill('SIGKILL'), 60_000);
    await daemon.exited;
    clearTimeout(killer);
  }
});

after(async () => {
  for (const { pid } of serversOfThisTest()) process.kill(pid, 'SIGKILL');
  await rm(root, { recursive: true, force: true });
});

describe('qpswatch daemon and once on the demo upstream', () => {
  test(
    'bad input stops at once with one line and exit 2: cron expression, ' +
      'time zone, a lock held, the metrics port in use',
    async () => {
      await writeConfig({ tags: ['mariadb-10.11.1'] });
      const cron = await runCli(['daemon'], {
        env: { QPSWATCH_CONFIG: configFile(), QPSWATCH_SCHEDULE: '61 * * * *' },
      });
      assert.equal(cron.code, 2);
      assert.deepEqual(messageLines(cron.stderr), [
        'qpswatch: environment QPSWATCH_SCHEDULE = "61 * * * *": expected a ' +
          'cron expression of 5 fields (minute hour day-of-month month ' +
          'day-of-week), e.g. "17 * * * *" for hourly at minute 17',
      ]);
      await writeConfig({ tags: ['mariadb-10.11.1'], extra: ['schedule_timezone: Europe/Atlantis'] });
      const zone = await cli('daemon');
      assert.equal(zone.code, 2);
      assert.deepEqual(messageLines(zone.stderr), [
        `qpswatch: ${configFile()}: schedule_timezone = "Europe/Atlantis": ` +
          `expected an IANA time zone name, e.g. UTC or Europe/Berlin`,
      ]);

      await writeConfig({ tags: ['mariadb-10.11.1'] });
      // A live process (this test runner) holds the lock (flock), as another daemon would.
      const runnerLock = acquireHostLock(lockFile(), { now: () => new Date('2026-03-01T10:00:00.000Z') });
      for (const command of ['daemon', 'once']) {
        const held = await cli(command);
        assert.equal(held.code, 2);
        assert.deepEqual(messageLines(held.stderr), [
          `qpswatch: host lock ${lockFile()} is held by pid ${process.pid} ` +
            `(started 2026-03-01T10:00:00.000Z): another qpswatch daemon is ` +
            `benchmarking on this host; stop it (systemctl stop qpswatch) or set ` +
            `host_lock`,
        ]);
      }
      runnerLock.release();

      const busy: Server = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      const port = (busy.address() as { port: number }).port;
      try {
        const inUse = await runCli(['daemon'], {
          env: { QPSWATCH_CONFIG: configFile(), QPSWATCH_METRICS_PORT: String(port) },
        });
        assert.equal(inUse.code, 2);
        assert.deepEqual(messageLines(inUse.stderr), [
          `qpswatch: metrics port ${port} on 127.0.0.1 is in use: stop what holds it or set metrics_port`,
        ]);
        assert.equal(existsSync(lockFile()), false, 'the lock is released on the way out');
      } finally {
        busy.close();
      }
    },
  );

  test(
    'once runs one full cycle: discover, queue, build, check, done; status ' + 'shows the queue and the verdicts',
    async () => {
      await writeConfig({ tags: ['mariadb-10.11.1', 'mariadb-10.11.3'] });
      const once = await cli('once');
      assert.equal(once.code, 0, once.stderr);
      assert.match(
        once.stdout,
        /^cycle done: 2 release\(s\) queued, 2 built, 0 build failure\(s\), 1 checked, 0 failed on the way$/m,
      );
      const queue = await withStore((s) => s.listQueue());
      assert.deepEqual(
        queue.map((q) => [q.tag, q.state]),
        [
          ['mariadb-10.11.1', 'done'],
          ['mariadb-10.11.3', 'done'],
        ],
      );
      const [session] = await withStore((s) => s.listSessions({ limit: 5 }));
      assert.equal(session?.state, 'done');
      assert.equal(session?.candidate.name, 'mariadb-10.11.3');
      const quiet = await withStore((s) => s.getQuietHost(session!.id));
      assert.ok(quiet !== undefined, 'the quiet-host check is stored with the session');
      assert.equal(typeof quiet.observation['busyPercent'], 'number');
      assert.equal(existsSync(lockFile()), false);

      const status = await cli('status');
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /^daemon: not running$/m);
      assert.match(status.stdout, /^ {2}demo {2}"mariadb-10\.11\.3" {2}done, 2 attempt\(s\)$/m);
      // inconclusive names the tests that kept the release from last good; slower prints its estimate and interval.
      assert.match(
        status.stdout,
        joined(
          /^ {2}demo: "mariadb-10\.11\.3" against "mariadb-10\.11\.1": /,
          /(ok|regression|inconclusive, not last good: (undecided|slower) \S+\.t\d)/m,
        ),
      );
      assert.match(
        status.stdout,
        // Parts of one regular expression: the alternatives in the middle span several of them.
        new RegExp(
          String.raw`^ {4}update-index\.t1 {2}\d\.\d\d {2}` +
            String.raw`((ok, no drop larger than \d+%|regression|improvement|` +
            String.raw`unstable: cannot rule out a drop larger than the \d+% margin)` +
            String.raw` \(95% interval \d+\.\d\d-(\d+\.\d\d|inf), |slower \d\.\d{3} \(\d\.\d{3}-\d\.\d{3}\): ` +
            String.raw`significantly slower, but not shown to be past the \d+% margin \(95% interval, )detects ` +
            String.raw`\d+%, \d+ (pair|round)s?\)$`,
          'm',
        ),
        'each verdict with its interval and detectable drop',
      );

      const again = await cli('once');
      assert.equal(again.code, 0, again.stderr);
      assert.match(
        again.stdout,
        /^cycle done: 0 release\(s\) queued, 0 built, 0 build failure\(s\), 0 checked, 0 failed on the way$/m,
        'nothing is done twice',
      );
    },
  );

  test(
    'a release sent back by `qpswatch invalid` is checked again; a busy ' +
      'host makes it wait, then run, and the wait is stored',
    async () => {
      const invalid = await cli(
        'invalid',
        'mariadb-10.11.3',
        '--reason',
        'backup ran during the session',
        '--by',
        'tester',
      );
      assert.equal(invalid.code, 0, invalid.stderr);
      // No host has a petabyte available: the check waits its 1 s at most, then runs anyway.
      await writeConfig({
        tags: ['mariadb-10.11.1', 'mariadb-10.11.3'],
        extra: ['quiet_min_available_bytes: 1000000000000000', 'quiet_max_wait_seconds: 1'],
      });
      const rerun = await cli('once');
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.match(
        rerun.stdout,
        /^cycle done: 0 release\(s\) queued, 0 built, 0 build failure\(s\), 1 checked, 0 failed on the way$/m,
      );
      assert.match(rerun.stderr, /"msg":"waiting for a quiet host: available memory [\d.]+ GiB, limit 931322\.6 GiB/);
      assert.match(
        rerun.stderr,
        joined(
          /"msg":"the host is still busy after \d+ s /,
          /\(quiet_max_wait_seconds\): the session runs anyway; its /,
          /results may be noisy"/,
        ),
      );
      await withStore(async (s) => {
        const [session] = await s.listSessions({ limit: 1 });
        assert.equal(session?.state, 'done');
        const quiet = await s.getQuietHost(session!.id);
        assert.equal(quiet?.quiet, false);
        assert.match(quiet?.reasons[0] ?? '', /^available memory/);
        assert.ok((quiet?.waitedSeconds ?? 0) >= 1);
        assert.deepEqual(await s.listReruns(), [], 'the rerun request is satisfied');
        assert.equal((await queued('mariadb-10.11.3'))?.state, 'done');
      });
    },
  );

  test(
    'kill -9 in the middle of a session, then a restart: servers stopped, ' +
      'the session redone, the broken one never counts',
    async (t) => {
      // Every 2 s: the last poll (the test before) is older than that, so the daemon catches up at once when it starts.
      await writeConfig({ tags: ['mariadb-10.11.1', 'mariadb-10.11.3', 'mariadb-10.11.9'], schedule: '*/2 * * * * *' });
      const first = new DaemonProcess();
      // Every process the daemon starts (servers, sysbench, exec's reaper), found by descent while it runs: after
      // SIGKILL they belong to init, and the reaper's command line names no folder of this test.
      const watch = new ProcessWatch(first.child.pid!);
      const broken = await until('a session of 10.11.9 in its first round', () =>
        withStore(async (s) => {
          watch.sample();
          const [latest] = await s.listSessions({ limit: 1 });
          if (latest?.candidate.name !== 'mariadb-10.11.9' || latest.state !== 'running') return undefined;
          return (await s.samplesForSession(latest.id)).length > 0 ? latest.id : undefined;
        }),
      );
      assert.equal((await queued('mariadb-10.11.9'))?.state, 'benchmarking');
      watch.sample();
      first.child.kill('SIGKILL');
      await first.exited;
      // The assertions below run every time, and are about something: the watch saw the session's processes.
      const seen = new Set(watch.all().map((p) => p.program));
      assert.ok(seen.has('mariadbd') && seen.has('sysbench'), JSON.stringify(watch.all()));
      assert.ok(
        watch.all().some((p) => p.cmdline.includes('/exec/reaper-main.js')),
        'the watch saw the reaper',
      );
      // exec starts mysqld and sysbench in process groups of their own, listed with its reaper: they die with it.
      const orphans = await untilNone(() => [...watch.left(), ...serversOfThisTest(), ...reapersOf(projectRoot)]);
      t.diagnostic(`processes left by the killed daemon: ${JSON.stringify(orphans)}`);
      assert.deepEqual(orphans, [], 'the servers, sysbench and the reaper die with the daemon');
      assert.ok(existsSync(lockFile()), 'the dead daemon left its lock');

      const second = new DaemonProcess();
      const secondWatch = new ProcessWatch(second.child.pid!);
      await until('10.11.9 done again', async () => {
        secondWatch.sample();
        return (await queued('mariadb-10.11.9'))?.state === 'done' ? true : undefined;
      });
      // What the killed session left on disk (its datadirs, its password files) goes before the session is redone.
      assert.ok(
        second
          .messages()
          .includes('a session cut off by a killed qpswatch left its datadirs and password files: removed them'),
        second.log.slice(-3000),
      );
      assert.ok(second.messages().includes('a benchmark was cut off by a daemon that stopped: the session is redone'));
      second.child.kill('SIGTERM');
      assert.equal((await second.exited).code, 0, second.log.slice(-3000));
      assert.ok(
        secondWatch.all().some((p) => p.program === 'mariadbd'),
        'the watch saw the redone session',
      );
      assert.deepEqual(
        await untilNone(() => [...secondWatch.left(), ...serversOfThisTest(), ...reapersOf(projectRoot)]),
        [],
        'no mysqld, sysbench or reaper left running',
      );

      await withStore(async (s) => {
        assert.equal((await s.getSession(broken))?.state, 'interrupted');
        const redone = (await s.listSessions({ limit: 10, state: 'done' })).filter(
          (x) => x.candidate.name === 'mariadb-10.11.9',
        );
        assert.equal(redone.length, 1);
        assert.ok(redone[0]!.id > broken);
        const checks = (await s.listChecks('demo')).map((c) => c.sessionId);
        assert.ok(checks.includes(redone[0]!.id));
        assert.ok(!checks.includes(broken), 'the broken session is never a check');
        assert.deepEqual(await s.verdictsOfSession(broken), []);
        assert.deepEqual(await s.completedSamples(broken), []);
      });
    },
  );

  test(
    'SIGTERM in the middle of a test: exit 0 well within TimeoutStopSec, ' +
      'mysqld stopped, the session interrupted and queued again',
    async (t) => {
      // metrics_port 0 means no metrics server: this test scrapes one, on a port nothing holds.
      const metricsPort = await freePort();
      await writeConfig({
        tags: ['mariadb-10.11.1', 'mariadb-10.11.3', 'mariadb-10.11.9', 'mariadb-10.11.10'],
        suite: 'long.yaml',
        schedule: '*/2 * * * * *',
        extra: [`metrics_port: ${metricsPort}`],
      });
      const daemon = new DaemonProcess();
      const watch = new ProcessWatch(daemon.child.pid!);
      await until('the long test of 10.11.10 running', () => {
        watch.sample();
        return daemon.messages().includes('test 1 of 1: point-query t1') ? true : undefined;
      });
      const sessionId = await withStore(async (s) => (await s.listSessions({ limit: 1 }))[0]!.id);
      assert.ok(serversOfThisTest().length > 0, 'a server and sysbench are running');
      watch.sample();
      const running = await cli('status');
      assert.match(
        running.stdout,
        new RegExp(
          `^daemon: pid ${daemon.child.pid}, benchmarking, started \\d+ (s|min) ago \\("mariadb-10\\.11\\.10"\\)$`,
          'm',
        ),
      );
      const scrape = await fetch(daemon.metricsUrl());
      assert.equal(scrape.status, 200);
      const body = await scrape.text();
      assert.match(body, /^qpswatch_phase\{phase="benchmarking"\} 1$/m);
      assert.match(body, /^qpswatch_queue_releases\{state="benchmarking"\} 1$/m);
      assert.match(body, /^qpswatch_poll_interval_seconds 2$/m);
      const sent = Date.now();
      daemon.child.kill('SIGTERM');
      const { code } = await daemon.exited;
      const stopSeconds = (Date.now() - sent) / 1000;
      t.diagnostic(`stopped ${stopSeconds.toFixed(1)} s after SIGTERM`);
      assert.equal(code, 0, daemon.log.slice(-3000));
      assert.ok(stopSeconds < 60, `stopped in ${stopSeconds} s; systemd allows 600`);
      assert.ok(
        watch.all().some((p) => p.program === 'mariadbd'),
        JSON.stringify(watch.all()),
      );
      assert.deepEqual(await untilNone(() => [...watch.left(), ...serversOfThisTest(), ...reapersOf(projectRoot)]), []);
      assert.equal(existsSync(lockFile()), false, 'the lock is released');
      await withStore(async (s) => {
        assert.equal((await s.getSession(sessionId))?.state, 'interrupted');
        assert.equal(
          (await queued('mariadb-10.11.10'))?.state,
          'built',
          'queued again, to be redone at the next start',
        );
        assert.equal((await s.getDaemonState(THIS_HOST)).pid, null);
      });
      const status = await cli('status');
      assert.match(status.stdout, /^daemon: not running$/m);
    },
  );

  test(
    'SIGTERM during a build: cmake is stopped, the release goes back to ' + 'discovered, and the next cycle builds it',
    async (t) => {
      await writeConfig({
        tags: ['mariadb-10.11.1', 'mariadb-10.11.2', 'mariadb-10.11.3', 'mariadb-10.11.9', 'mariadb-10.11.10'],
        schedule: '*/2 * * * * *',
      });
      const daemon = new DaemonProcess();
      await until('the build of 10.11.2 running', () =>
        daemon.messages().includes('build progress') ? true : undefined,
      );
      const sent = Date.now();
      daemon.child.kill('SIGTERM');
      const { code } = await daemon.exited;
      t.diagnostic(`stopped ${((Date.now() - sent) / 1000).toFixed(1)} s after SIGTERM during a build`);
      assert.equal(code, 0, daemon.log.slice(-3000));
      assert.equal((await queued('mariadb-10.11.2'))?.state, 'discovered');
      const once = await cli('once');
      assert.equal(once.code, 0, once.stderr);
      assert.match(
        once.stdout,
        /^cycle done: 0 release\(s\) queued, 1 built, 0 build failure\(s\), 2 checked, 0 failed on the way$/m,
      );
      assert.equal((await queued('mariadb-10.11.2'))?.state, 'done');
      assert.equal((await queued('mariadb-10.11.10'))?.state, 'done');
    },
  );

  test(
    'a build that fails and a session that fails: attempts counted, one ' +
      'email each after the last attempt, status shows it, the cycle goes on',
    async (t) => {
      // A second upstream on the same remote whose server cannot start (an init file that does not exist): each of
      // its sessions fails the way a crashed server does. Its first release needs no session, so it is done.
      const profiles = join(root, 'server-profiles');
      await mkdir(profiles, { recursive: true });
      const relaxed = join(testServerProfilesDir(), 'relaxed.yaml');
      await copyFile(relaxed, join(profiles, 'relaxed.yaml'));
      await writeFile(
        join(profiles, 'crashy.yaml'),
        `${await readFile(relaxed, 'utf8')}\n`.replace(
          'settings:\n',
          `settings:\n  init_file: ${join(root, 'no-such-init-file.sql')}\n`,
        ),
      );
      const folder = await makeMailFolder();
      const sink = await startSmtpSink({ folder });
      try {
        await writeConfig({
          // The releases checked by the tests before are left out: only what fails here, and a first release, is taken.
          tags: ['mariadb-10.11.4'],
          extra: [
            `server_profiles_dir: ${profiles}`,
            'retry_attempts: 2',
            'retry_backoff_minutes: 0',
            'email_to: [dba@example.org]',
            'email_from: qpswatch@example.org',
            'smtp_host: 127.0.0.1',
            `smtp_port: ${sink.port}`,
          ],
          upstreams: [
            `{ name: crashy, remote: ${join(root, 'upstream')}, flavor: mariadb, ` +
              `series: "10.11", build_profile: demo, server_profile: crashy, include: ` +
              `["mariadb-10.11.1", "mariadb-10.11.2"] }`,
          ],
        });
        const first = await cli('once');
        t.diagnostic(first.stdout.trim());
        assert.ok(first.code === 0 || first.code === 1, first.stderr.slice(-3000));
        const rows = async (): Promise<Map<string, QueueRecord>> =>
          withStore(async (s) => new Map((await s.listQueue()).map((q) => [`${q.upstream}/${q.tag}`, q])));
        let queue = await rows();
        for (const [name, q] of queue) if (q.lastError !== null) t.diagnostic(`${name}: ${q.state}: ${q.lastError}`);
        assert.equal(queue.get('crashy/mariadb-10.11.1')?.state, 'done', "the series' first release is taken");
        const broken = queue.get('demo/mariadb-10.11.4')!;
        assert.deepEqual(
          [broken.state, broken.failedStep, broken.failures],
          ['failed', 'build', 1],
          'a compiler error is not retried',
        );
        // gcc quotes with ‘’ in a UTF-8 locale and '' in C.
        assert.ok(
          broken.errorLines.some((l) => /expected .;. before/.test(l)),
          broken.errorLines.join('\n'),
        );
        const crashy = queue.get('crashy/mariadb-10.11.2')!;
        assert.deepEqual(
          [crashy.state, crashy.failedStep, crashy.failures],
          ['built', 'session', 1],
          'a failed session waits for its next attempt',
        );
        assert.ok(crashy.nextAttemptAt !== null);
        assert.deepEqual(
          (await sink.received()).map((m) => m.parsed.subject),
          ['qpswatch: could not build mariadb-10.11.4'],
          'the build failure is told at once, the session not yet',
        );
        const status = await cli('status');
        assert.match(
          status.stdout,
          joined(
            /^ {2}crashy {2}"mariadb-10\.11\.2" {2}built, \d+ /,
            /attempt\(s\), session failed 1 time\(s\), next try .+, last /,
            /error: ".+"$/m,
          ),
        );
        assert.match(
          status.stdout,
          joined(
            /^ {2}demo {2}"mariadb-10\.11\.4" {2}failed, \d+ /,
            /attempt\(s\), build failed 1 time\(s\), last error: "build /,
            /failed: .+"$/m,
          ),
        );

        const second = await cli('once');
        t.diagnostic(second.stdout.trim());
        queue = await rows();
        const gaveUp = queue.get('crashy/mariadb-10.11.2')!;
        t.diagnostic(`the session's last error: ${gaveUp.lastError ?? ''}`);
        assert.deepEqual(
          [gaveUp.state, gaveUp.failedStep, gaveUp.failures, gaveUp.nextAttemptAt],
          ['failed', 'session', 2, null],
          'retry_attempts 2: given up after the second',
        );
        assert.equal(queue.get('demo/mariadb-10.11.4')?.failures, 1, 'a failed build is not tried again');
        const third = await cli('once');
        assert.match(
          third.stdout,
          /0 build failure\(s\), 0 checked, 0 failed on the way$/m,
          'nothing failed is taken again',
        );

        const mails = await sink.received();
        assert.deepEqual(
          mails.map((m) => m.parsed.subject).sort(),
          ['qpswatch: could not build mariadb-10.11.4', 'qpswatch: could not measure mariadb-10.11.2'],
          'one email each, none twice',
        );
        const measure = mails.find((m) => m.parsed.subject === 'qpswatch: could not measure mariadb-10.11.2')!;
        assert.match(measure.parsed.text ?? '', /failed after 2 attempts/);
        assert.ok(
          gaveUp.errorLines.length > 0 &&
            gaveUp.errorLines.every(
              (l) => (measure.parsed.text ?? '').includes(l.slice(0, 60)) || /[\u0000-\u001f]/.test(l),
            ),
          'the email carries the last error lines',
        );
        await withStore(async (s) => assert.equal((await s.listMessages('pending')).length, 0));
        const after = await cli('status');
        assert.match(
          after.stdout,
          joined(
            /^ {2}crashy {2}"mariadb-10\.11\.2" {2}failed, \d+ /,
            /attempt\(s\), session failed 2 time\(s\), last error: ".+"$/m,
          ),
        );
      } finally {
        await sink.close();
        await removeFolder(folder);
      }
    },
  );

  test(
    'a message whose next attempt is N s away is sent by the running daemon ' +
      'about N s later, not at the next cycle',
    async (t) => {
      const folder = await makeMailFolder();
      const sink = await startSmtpSink({ folder });
      try {
        // Hourly: the last poll is recent (the test before), so no cycle runs while this test watches.
        await writeConfig({
          tags: ['mariadb-10.11.1'],
          extra: [
            'email_to: [dba@example.org]',
            'email_from: qpswatch@example.org',
            'smtp_host: 127.0.0.1',
            `smtp_port: ${sink.port}`,
          ],
        });
        await queueOneMessage(stateDir(), 'qpswatch: between cycles');
        const seconds = 4;
        const dueAt = Date.now() + seconds * 1000;
        await withStore(async (s) => {
          const message = (await s.listMessages('pending')).find((m) => m.subject === 'qpswatch: between cycles')!;
          await s.markMessageFailed(message.id, 'connection refused', new Date(dueAt).toISOString());
        });
        const daemon = new DaemonProcess();
        const received = await until(
          'the message at the sink',
          async () =>
            (await sink.received()).some((m) => m.parsed.subject === 'qpswatch: between cycles')
              ? Date.now()
              : undefined,
          30_000,
        );
        const late = (received - dueAt) / 1000;
        t.diagnostic(`sent ${late.toFixed(2)} s after its next attempt (${seconds} s after it was set)`);
        assert.ok(late > -0.5 && late < 3, `sent ${late} s after its time`);
        assert.ok(!daemon.messages().includes('cycle starts'), 'no cycle ran: the timer sent it');
        const sent = Date.now();
        daemon.child.kill('SIGTERM');
        assert.equal((await daemon.exited).code, 0, daemon.log.slice(-3000));
        t.diagnostic(`stopped ${((Date.now() - sent) / 1000).toFixed(2)} s after SIGTERM`);
        assert.equal((await sink.received()).filter((m) => m.parsed.subject === 'qpswatch: between cycles').length, 1);
      } finally {
        await sink.close();
        await removeFolder(folder);
      }
    },
  );
});
