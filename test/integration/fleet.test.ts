import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import type { MysqlStoreOptions } from '../../src/store/index.js';
import type { CliResult } from '../helpers/cli.js';
import {
  startResultsServer,
  STORE_PASSWORD,
  withMysqlStore as withStore,
  type ResultsServer,
} from '../helpers/results-db.js';
import { letServerPass } from '../helpers/server-user.js';
import { freePort, makeMailFolder, removeFolder, startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * A fleet: two daemons, each with its own state and cache folders, host lock and (through fingerprint_test_mark, a
 * setting for tests only) its own host fingerprint, share one results database on a scratch MariaDB and process the
 * demo upstream with real git, cmake, mariadbd and sysbench. Each release is benchmarked once per host; a daemon
 * killed with SIGKILL mid-session loses its release to the other daemon of its class once its claim lapses; and every
 * email goes out once for the fleet.
 */
let root = '';
let demo: DemoUpstream;
let results: ResultsServer;
let sink: SmtpSink;
let mailFolder = '';
let slowTag = '';
let slowVersion = '';
const FIRST = 'mariadb-10.11.1';

const ENTRY = new URL('../../src/cli/run.js', import.meta.url).pathname;
const ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: process.env['HOME'] ?? '/',
  QPSWATCH_LOG_FORMAT: 'json',
  QPSWATCH_STORE_PASSWORD: STORE_PASSWORD,
  // The instructions lane adds minutes to every check: its own tests turn it on.
  QPSWATCH_INSTRUCTION_COUNTER: 'off',
};

interface Member {
  name: string;
  mark: string;
  config: string;
}

async function writeMember(
  name: string,
  mark: string,
  store: MysqlStoreOptions,
  extra: readonly string[] = [],
): Promise<Member> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  const config = join(dir, 'qpswatch.yaml');
  const lines = [
    `state_dir: ${join(dir, 'state')}\nserver_profiles_dir: ${testServerProfilesDir()}`,
    `cache_dir: ${join(dir, 'cache')}`,
    `host_lock: ${join(dir, 'host.lock')}`,
    `host_name: ${name}`,
    `fingerprint_test_mark: ${mark}`,
    'store_backend: mysql',
    `store_socket: ${store.socket}`,
    `store_user: ${store.user}`,
    `store_database: ${store.database}`,
    'log_level: info',
    'profiling: off',
    'min_free_bytes: 1000000',
    `suite: ${join(root, 'tiny.yaml')}`,
    // Whole runs at 2 rounds keep the sessions short; the slow tag is 5 times slower in writes.
    'design: runs',
    'rounds: 2',
    'alpha: 0.2',
    'quiet_max_busy_percent: 100',
    'quiet_min_available_bytes: 0',
    'quiet_window_seconds: 0.2',
    'quiet_max_wait_seconds: 0',
    'metrics_port: 0',
    'test_thresholds: { update-index: 0.6, point-query: 0.6 }',
    'email_to: [dba@example.org]',
    'email_from: qpswatch@example.org',
    'smtp_host: 127.0.0.1',
    `smtp_port: ${sink.port}`,
    'smtp_timeout_seconds: 5',
    ...extra,
    'upstreams:',
    `  - { name: demo, remote: ${demo.dir}, flavor: mariadb, series: "10.11", build_profile: demo, ` +
      `server_profile: relaxed, include: ${JSON.stringify([FIRST, slowTag])} }`,
    '',
  ];
  await writeFile(config, lines.join('\n'));
  return { name, mark, config };
}

function start(member: Member, command: string): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [ENTRY, '--config', member.config, command], {
    env: ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, result };
}

const run = (member: Member, command: string): Promise<CliResult> => start(member, command).result;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** mariadbd and sysbench processes whose command line names a folder: a member's, or the whole test's. */
function serversUnder(folder: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        const program = argv[0]?.split('/').pop() ?? '';
        return (program === 'mariadbd' || program === 'sysbench') && argv.some((a) => a.includes(folder))
          ? [Number(p)]
          : [];
      } catch {
        return [];
      }
    });
}

/** The sessions of the store: each one's runner (host_name) and candidate. */
async function sessionsByRunner(options: MysqlStoreOptions): Promise<string[]> {
  return withStore(options, async (s) =>
    (await s.listSessions({ limit: 100 }))
      .filter((x) => x.state === 'done')
      .map((x) => `${String(x.settings['runner'])} ${x.candidate.name}`)
      .sort(),
  );
}

before(async () => {
  root = letServerPass(await mkdtemp('/tmp/qpsw-flt-'));
  demo = await makeDemoUpstream(join(root, 'upstream'));
  slowTag = demo.slowTag;
  slowVersion = slowTag.replace(/^mariadb-/, '');
  await writeFile(
    join(root, 'tiny.yaml'),
    'name: tiny\ndescription: fleet test\nload: { tables: 1, table_size: 1000 }\n' +
      'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 2, threads: [1] }\n' +
      'tests:\n  - { name: update-index, script: oltp_update_index }\n' +
      '  - { name: point-query, script: oltp_point_select }\n',
  );
  results = await startResultsServer('qpsw-flt-db-');
  mailFolder = await makeMailFolder();
  sink = await startSmtpSink({ folder: mailFolder });
});

after(async () => {
  for (const pid of serversUnder(root)) process.kill(pid, 'SIGKILL');
  await sink?.close();
  await results?.close();
  await removeFolder(mailFolder);
  await rm(root, { recursive: true, force: true });
});

describe('two daemons sharing one MariaDB results database', () => {
  test('each release is benchmarked once per host, the report puts the hosts side by side, one email', async () => {
    const store = await results.freshDatabase();
    const [a, b] = await Promise.all([writeMember('host-a', 'a', store), writeMember('host-b', 'b', store)]);
    const before = (await sink.received()).length;
    const [ra, rb] = await Promise.all([run(a, 'once'), run(b, 'once')]);
    assert.equal(ra.code, 0, ra.stderr);
    assert.equal(rb.code, 0, rb.stderr);
    // One session per host for the second release (the first is the series' base), and none twice.
    assert.deepEqual(await sessionsByRunner(store), [`host-a ${slowTag}`, `host-b ${slowTag}`]);
    const queue = await withStore(store, (s) => s.listQueue());
    assert.deepEqual(
      queue.map((q) => [q.slot, q.tag, q.state, q.claimedBy]),
      [
        ['host-a', FIRST, 'done', null],
        ['host-b', FIRST, 'done', null],
        ['host-a', slowTag, 'done', null],
        ['host-b', slowTag, 'done', null],
      ],
    );
    const hosts = await withStore(store, async (s) => {
      const sessions = await s.listSessions({ limit: 10 });
      return [...new Set(sessions.map((x) => x.hostId))].length;
    });
    assert.equal(hosts, 2, 'two host fingerprints');

    const side = await runReport(a, ['--by-host']);
    assert.equal(side.code, 0, side.stderr);
    // Each host against the base measured on it, side by side; the write test is far down on both.
    assert.match(side.stdout, /^h1: [0-9a-f]{16} \(/m);
    assert.match(side.stdout, /^h2: [0-9a-f]{16} \(/m);
    assert.match(side.stdout, /^version +point-query h1 +point-query h2 +update-index h1 +update-index h2$/m);
    const slowRow = side.stdout.split('\n').find((l) => l.startsWith(slowVersion)) ?? '';
    const updates = [...slowRow.matchAll(/▼?(\d\.\d\d) \(/g)].slice(-2).map((m) => Number(m[1]));
    assert.equal(updates.length, 2, slowRow);
    for (const u of updates) assert.ok(u < 0.5, slowRow);

    // status names each row's slot, since the store holds a row of each release per host.
    const status = await run(b, 'status');
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      new RegExp(`^ {2}demo {2}"${slowTag}" {2}done, \\d+ attempt\\(s\\) {2}\\["host-b"\\]$`, 'm'),
    );

    // Each daemon's /metrics serves its own host; `qpswatch metrics` serves the fleet's.
    const hostIds = await withStore(store, async (s) => {
      const ids = new Map<string, string>();
      for (const x of await s.listSessions({ limit: 10 }))
        ids.set(String(x.settings['runner']), (await s.getHost(x.hostId))!.fingerprintId);
      return ids;
    });
    const own = await scrape(a, 'daemon');
    assert.match(own, new RegExp(`qpswatch_qps\\{host="${hostIds.get('host-a')}"`));
    assert.doesNotMatch(own, new RegExp(`host="${hostIds.get('host-b')}"`));
    const fleet = await scrape(a, 'metrics', '--listen', '127.0.0.1:0');
    for (const id of hostIds.values()) assert.match(fleet, new RegExp(`qpswatch_qps\\{host="${id}"`));

    // The regression of the slow tag is the fleet's: one event, one email, whichever host saw it first.
    const mails = (await sink.received()).slice(before);
    const subjects = mails.map((m) => m.parsed.subject ?? '');
    assert.equal(
      subjects.filter((s) => s.includes(`${slowVersion} regressed: update-index`)).length,
      1,
      subjects.join('\n'),
    );
    assert.equal(new Set(subjects).size, subjects.length, 'no email twice');
  });

  test('a daemon killed mid-session: its release is taken over once its claim lapses, no email twice', async () => {
    const store = await results.freshDatabase();
    // One host class: the two daemons share one queue slot, and either may take a release.
    const shared = ['benchmark_once_per: host_class', 'claim_seconds: 10'];
    const [c1, c2] = await Promise.all([
      writeMember('host-c1', 'c', store, shared),
      writeMember('host-c2', 'c', store, shared),
    ]);
    const before = (await sink.received()).length;
    const doomed = start(c1, 'once');
    const claimed = await until('host-c1 benchmarking the slow tag', () =>
      withStore(store, async (s) => {
        const row = (await s.listQueue()).find((q) => q.tag === slowTag);
        const running = (await s.listSessions({ limit: 5, state: 'running' })).length > 0;
        return row?.state === 'benchmarking' && running ? row : undefined;
      }),
    );
    assert.equal(claimed.claimedBy, 'host-c1');
    doomed.child.kill('SIGKILL');
    await doomed.result;
    // The host is gone with its servers (they run in process groups of their own, so they outlive the daemon).
    for (const pid of serversUnder(join(root, 'host-c1'))) process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();

    // Before the claim lapses the release is host-c1's: host-c2 leaves it.
    const early = await run(c2, 'once');
    assert.equal(early.code, 0, early.stderr);
    if (Date.now() - killedAt < 9_000) {
      assert.match(early.stdout, /0 checked/);
      const row = await withStore(store, async (s) => (await s.listQueue()).find((q) => q.tag === slowTag));
      assert.deepEqual([row?.state, row?.claimedBy], ['benchmarking', 'host-c1']);
    }
    await until('the claim to lapse', async () => {
      const row = await withStore(store, async (s) => (await s.listQueue()).find((q) => q.tag === slowTag));
      return row?.claimExpiresAt !== null && Date.parse(row!.claimExpiresAt!) < Date.now() ? true : undefined;
    });
    const taken = await run(c2, 'once');
    assert.equal(taken.code, 0, taken.stderr);
    // Taken over when it starts (recovery) or in its cycle, whichever comes after the claim lapsed.
    assert.match(
      taken.stderr,
      /a benchmark was cut off by a daemon that stopped: the session is redone|the claim on this release lapsed/,
    );
    assert.match(taken.stdout, /1 checked/);
    const row = await withStore(store, async (s) => (await s.listQueue()).find((q) => q.tag === slowTag));
    assert.deepEqual([row?.state, row?.claimedBy], ['done', null]);
    // One session done for the slow tag, by the daemon that took it over; the killed one's stays unfinished.
    assert.deepEqual(await sessionsByRunner(store), [`host-c2 ${slowTag}`]);

    const subjects = (await sink.received()).slice(before).map((m) => m.parsed.subject ?? '');
    assert.equal(
      subjects.filter((s) => s.includes(`${slowVersion} regressed: update-index`)).length,
      1,
      subjects.join('\n'),
    );
    assert.equal(new Set(subjects).size, subjects.length, 'no email twice');
  });
});

function runReport(member: Member, args: readonly string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [ENTRY, '--config', member.config, 'report', ...args], {
    env: ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the daemon or `qpswatch metrics`, reads /metrics once, stops it. */
async function scrape(member: Member, ...command: string[]): Promise<string> {
  const child = spawn(process.execPath, [ENTRY, '--config', member.config, ...command], {
    // The daemon's last poll is recent, so it waits for its schedule; its metrics server answers meanwhile.
    env: { ...ENV, QPSWATCH_METRICS_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => (log += d));
  let gone = false;
  const exited = new Promise((resolve) => child.on('close', resolve)).then(() => (gone = true));
  try {
    const url = await until(
      'the metrics server',
      async () => {
        if (gone) throw new Error(`qpswatch ${command.join(' ')} exited: ${log}`);
        const line = log.split('\n').find((l) => l.includes('"metrics server listening"'));
        return line === undefined ? undefined : (JSON.parse(line) as { url: string }).url;
      },
      60_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}; its log: ${log.slice(-3000)}`);
    });
    return await (await fetch(url)).text();
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
