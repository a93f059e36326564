import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { defaultSqlitePath, openStore, sqliteSchemaVersion, type Store } from '../../src/store/index.js';
import { parseVersion, versionKey } from '../../src/version/index.js';
import { runCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';
import { joined } from '../helpers/pattern.js';

/**
 * The operator's view of an installed service: install.sh into a throw-away root (QPSWATCH_ROOT), its config in
 * place, the daemon's store in the service's state folder, then `qpswatch` run from another folder as `nobody`,
 * who may read the store but write neither it nor its folder. It must show the daemon's store and create nothing.
 */
const work = mkdtempSync(join(tmpdir(), 'qpswatch-installed-'));
// mkdtemp makes a 0700 folder; nobody must be able to walk into the staged root.
chmodSync(work, 0o755);
after(() => rmSync(work, { recursive: true, force: true }));
const root = join(work, 'root');
mkdirSync(root);
const at = (path: string): string => join(root, path);
const stateDir = at('var/lib/qpswatch');
const storePath = join(stateDir, 'qpswatch.sqlite');
const elsewhere = join(work, 'elsewhere');

const isRoot = process.getuid?.() === 0;
const hasRunuser = spawnSync('runuser', ['--help']).error === undefined;
const SKIP = !isRoot || !hasRunuser ? 'needs root and runuser (util-linux) to run qpswatch as nobody' : undefined;

function sh(
  cmd: string,
  args: readonly string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, {
    encoding: 'utf8',
    cwd: opts.cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...opts.env },
    timeout: 120_000,
  });
  if (result.error !== undefined) throw result.error;
  return result;
}

/** What the link on PATH runs, found inside the staged root (the link itself names /opt/qpswatch as on the host). */
const program = (): string => at(readlinkSync(at('usr/local/bin/qpswatch')));

/**
 * `qpswatch ARGS` as nobody, from a folder nobody may write (so a stray ./var would show), with a clean environment.
 */
function asNobody(args: readonly string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const vars = Object.entries({
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    QPSWATCH_ROOT: root,
    QPSWATCH_LOG_FORMAT: 'json',
    ...env,
  }).map(([k, v]) => `${k}=${v}`);
  return sh('runuser', ['-u', 'nobody', '--', 'env', '-i', ...vars, process.execPath, program(), ...args], {
    cwd: elsewhere,
  });
}

/** Every path under the folders a command might write to, symlinks not followed. */
function tree(...dirs: string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return lstatSync(path).isDirectory() ? [path, ...walk(path)] : [path];
    });
  return dirs.flatMap(walk).sort();
}

async function seedDaemonStore(): Promise<void> {
  mkdirSync(stateDir, { recursive: true });
  const store = await openStore({ backend: 'sqlite', path: storePath });
  try {
    const { added } = await store.recordReleases([
      {
        upstream: 'mariadb-10.11',
        flavor: 'mariadb',
        tag: 'mariadb-10.11.9',
        commit: 'a'.repeat(40),
        version: '10.11.9',
        versionKey: versionKey(parseVersion('10.11.9')),
      },
    ]);
    await store.enqueueReleases(
      'this-host',
      added.map((r) => r.id),
    );
    // This test's own process stands in for the daemon: alive, and owned by another user than nobody.
    await store.setDaemonState('', {
      pid: process.pid,
      phase: 'building',
      phaseSince: new Date().toISOString(),
      lastPollAt: new Date().toISOString(),
    });
  } finally {
    await store.close();
  }
}

describe('an installed qpswatch, used by an operator who may only read', { skip: SKIP }, () => {
  before(async () => {
    const install = sh('bash', [join(projectRoot, 'systemd', 'install.sh'), '--no-build'], {
      env: { QPSWATCH_ROOT: root },
    });
    assert.equal(install.status, 0, install.stderr);
    // The stand-in for the build install.sh leaves out with --no-build: this checkout's compiled program and packages.
    symlinkSync(join(projectRoot, 'dist'), at('opt/qpswatch/dist'));
    symlinkSync(join(projectRoot, 'node_modules'), at('opt/qpswatch/node_modules'));
    await seedDaemonStore();
    mkdirSync(elsewhere);
    chownSync(elsewhere, 65534, 65534);
  });

  test('install.sh links qpswatch onto PATH, to the program it installed', () => {
    assert.equal(readlinkSync(at('usr/local/bin/qpswatch')), '/opt/qpswatch/bin/qpswatch.js');
    assert.ok(existsSync(program()));
  });

  test("status from another folder reads the service config and shows the daemon's store, creating nothing", () => {
    const before = tree(root + '/etc', root + '/var', elsewhere);
    const status = asNobody(['status']);
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^daemon: pid ${process.pid}, building, started \\d+ s ago$`, 'm'));
    assert.match(status.stdout, /^ {2}mariadb-10\.11 {2}"mariadb-10\.11\.9" {2}discovered, 0 attempt\(s\)$/m);
    assert.match(status.stdout, /^last poll: \d+ s ago$/m);
    assert.deepEqual(tree(root + '/etc', root + '/var', elsewhere), before);
    assert.equal(lstatSync(storePath).uid, 0, 'the store still belongs to its owner');
  });

  test('status also reads while the daemon holds the store open (its -wal and -shm files exist)', async () => {
    let store: Store | undefined;
    try {
      store = await openStore({ backend: 'sqlite', path: storePath });
      await store.setDaemonState('', { phase: 'benchmarking', phaseSince: new Date().toISOString() });
      assert.ok(existsSync(`${storePath}-shm`));
      const before = tree(root + '/var', elsewhere);
      const status = asNobody(['status', '--json']);
      assert.equal(status.status, 0, status.stderr);
      assert.equal((JSON.parse(status.stdout) as { daemon: { phase: string } }).daemon.phase, 'benchmarking');
      assert.deepEqual(tree(root + '/var', elsewhere), before);
    } finally {
      await store?.close();
    }
  });

  test('outbox and export read the store as well', () => {
    const outbox = asNobody(['outbox']);
    assert.equal(outbox.status, 0, outbox.stderr);
    assert.equal(outbox.stdout, 'no pending messages\n');
    const exported = asNobody(['export']);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stdout, /^flavor,version,test,threads,qps/);
    assert.deepEqual(readdirSync(elsewhere), []);
  });

  test('a store from an older qpswatch: one line saying how to migrate it, and the file is left as it was', () => {
    const oldDir = join(work, 'old-state');
    mkdirSync(oldDir);
    const db = new Database(join(oldDir, 'qpswatch.sqlite'));
    db.exec('CREATE TABLE hosts (id INTEGER PRIMARY KEY)');
    db.pragma(`user_version = ${sqliteSchemaVersion - 1}`);
    db.close();
    const bytes = readFileSync(join(oldDir, 'qpswatch.sqlite'));
    const status = asNobody(['status'], { QPSWATCH_STATE_DIR: oldDir });
    assert.equal(status.status, 1);
    const lines = status.stderr.trim().split('\n');
    assert.equal(lines.length, 1, status.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `^qpswatch: store .*qpswatch\\.sqlite has schema version ` +
          `${sqliteSchemaVersion - 1}, older than this qpswatch's ` +
          `${sqliteSchemaVersion}, .*restart the daemon`,
      ),
    );
    assert.deepEqual(readFileSync(join(oldDir, 'qpswatch.sqlite')), bytes);
    assert.deepEqual(readdirSync(oldDir), ['qpswatch.sqlite']);
  });

  test('no store where the config points: one line naming the path and the fix, exit 2, nothing created', () => {
    const status = asNobody(['status'], { QPSWATCH_STATE_DIR: join(work, 'nowhere') });
    assert.equal(status.status, 2);
    assert.match(
      status.stderr,
      joined(
        /^qpswatch: no store at .*nowhere\/qpswatch\.sqlite: nothing /,
        /was recorded with state_dir .*nowhere \(config: /,
        /.*etc\/qpswatch\/qpswatch\.yaml\); name the config the /,
        /daemon uses with --config\n$/,
      ),
    );
    assert.equal(existsSync(join(work, 'nowhere')), false);
  });

  test('--uninstall removes the link with the program', () => {
    const result = sh('bash', [join(projectRoot, 'systemd', 'install.sh'), '--uninstall'], {
      env: { QPSWATCH_ROOT: root },
    });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(lstatSync(at('usr/local/bin/qpswatch'), { throwIfNoEntry: false }), undefined);
    assert.ok(existsSync(storePath), 'the results stay');
  });
});

describe('qpswatch with no command, and --version', () => {
  test('bare qpswatch prints the help to stdout and exits 0', async () => {
    const result = await runCli([], { env: { QPSWATCH_ROOT: work } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: qpswatch /m);
    assert.equal(result.stderr, '');
  });

  test('--version prints the version of package.json and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version'], { env: { QPSWATCH_ROOT: work } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `qpswatch ${version}\n`);
  });
});

/**
 * The idle-state hold under the installed unit, as far as this host can show it. What is real: install.sh's udev rule,
 * read back from the staged root and applied by hand as udevd would (group and mode of a node of the kernel's PM QoS
 * device, bind-mounted over /dev/cpu_dma_latency in a private mount namespace, so the host's node is not touched); a
 * process with the unit's credentials (a uid and its primary group, no supplementary groups, no capabilities, no new
 * privileges, systemd's INVOCATION_ID and folder variables); a real session of mariadbd and sysbench. What is not: PID
 * 1
 * here is not systemd, so the unit's device cgroup (DevicePolicy=closed, DeviceAllow=) is not in force; nobody and
 * its group stand in for the user and group qpswatch, which this host does not have.
 */
const DEVICE = '/dev/cpu_dma_latency';
const tools = ['setpriv', 'unshare', 'mknod', 'mount', 'sysbench', 'mariadbd'].filter(
  (tool) => spawnSync('sh', ['-c', 'command -v "$0"', tool]).status !== 0,
);
const HOLD_SKIP =
  SKIP ??
  (!existsSync(DEVICE) ? `${DEVICE} does not exist here` : tools.length > 0 ? `needs ${tools.join(', ')}` : undefined);

describe("the installed unit's account holds the idle states once the udev rule applies", { skip: HOLD_SKIP }, () => {
  const holdRoot = join(work, 'hold-root');
  const stage = (path: string): string => join(holdRoot, path);
  const serviceState = stage('var/lib/qpswatch');
  const serviceCache = stage('var/cache/qpswatch');
  // What systemd makes for RuntimeDirectory=: the host lock's folder, the service user's (really /run/qpswatch).
  const serviceRuntime = stage('run/qpswatch');
  const configFile = stage('etc/qpswatch/qpswatch.yaml');
  const suiteFile = stage('tiny.yaml');
  const standIn = stage('dev/cpu_dma_latency');
  const NOBODY = 65534;

  before(() => {
    mkdirSync(join(holdRoot, 'dev'), { recursive: true });
    const install = sh('bash', [join(projectRoot, 'systemd', 'install.sh'), '--no-build'], {
      env: { QPSWATCH_ROOT: holdRoot },
    });
    assert.equal(install.status, 0, install.stderr);
    symlinkSync(join(projectRoot, 'dist'), stage('opt/qpswatch/dist'));
    symlinkSync(join(projectRoot, 'node_modules'), stage('opt/qpswatch/node_modules'));
    // What systemd makes for StateDirectory= and CacheDirectory=: owned by the service's user, mode 0750.
    for (const dir of [serviceState, serviceCache, serviceRuntime]) {
      mkdirSync(dirname(dir), { recursive: true, mode: 0o755 });
      mkdirSync(dir, { mode: 0o750 });
      chownSync(dir, NOBODY, NOBODY);
    }
    // The operator's edit of the installed config: two targets of the distribution's server.
    writeFileSync(
      configFile,
      'log_level: info\ntargets:\n  relaxed: { kind: installed, flavor: ' +
        'mariadb, basedir: /usr, server_profile: relaxed }\n  durable: { kind: ' +
        'installed, flavor: mariadb, basedir: /usr, server_profile: durable }\n',
    );
    writeFileSync(
      suiteFile,
      'name: tiny-hold\ndescription: one read test, eight pairs\nload: { ' +
        'tables: 1, table_size: 1000 }\nwarmup: { script: oltp_read_only, ' +
        'seconds: 1, threads: 1 }\ndefaults: { seconds: 1, threads: [1] ' +
        '}\ntests:\n  - name: point-query\n    script: oltp_point_select\n',
    );
  });

  /** The group and mode the installed rule gives the device; the stand-in node gets exactly those. */
  function installedRule(): { group: string; mode: number } {
    const text = readFileSync(stage('etc/udev/rules.d/90-qpswatch-cpu-dma-latency.rules'), 'utf8');
    const line = text.split('\n').find((l) => l.includes('KERNEL=="cpu_dma_latency"'));
    assert.ok(line !== undefined, text);
    const group = /GROUP="([^"]+)"/.exec(line)?.[1];
    const mode = /MODE="([0-7]+)"/.exec(line)?.[1];
    assert.ok(group !== undefined && mode !== undefined, line);
    return { group, mode: parseInt(mode, 8) };
  }

  /**
   * What udevd does with the rule, done by hand on a node of the same device: its group (nobody's group stands for
   * qpswatch) and mode. The host's node keeps root:root 0600; the stand-in is bind-mounted over it per process.
   */
  function applyRuleByHand(): void {
    const { rdev } = statSync(DEVICE);
    // Linux's dev_t: the major in bits 8-19, the minor in bits 0-7 and 20-31 (both small for misc devices).
    const made = sh('mknod', [
      '-m',
      installedRule().mode.toString(8),
      standIn,
      'c',
      String((rdev >> 8) & 0xfff),
      String((rdev & 0xff) | ((rdev >> 12) & 0xfff00)),
    ]);
    assert.equal(made.status, 0, made.stderr);
    chownSync(standIn, 0, NOBODY);
  }

  /** `qpswatch ARGS` with the unit's credentials, /dev/cpu_dma_latency replaced by the stand-in node when asked. */
  function asService(args: readonly string[], withRule: boolean): SpawnSyncReturns<string> {
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      QPSWATCH_ROOT: holdRoot,
      QPSWATCH_LOG_FORMAT: 'json',
      STATE_DIRECTORY: serviceState,
      CACHE_DIRECTORY: serviceCache,
      INVOCATION_ID: '0123456789abcdef0123456789abcdef',
      HOME: serviceState,
      // The host lock a test run names for itself (the suite's preamble), else the one in the unit's runtime folder.
      QPSWATCH_HOST_LOCK: process.env['QPSWATCH_HOST_LOCK'] ?? join(serviceRuntime, 'host.lock'),
      // New server instances before every sweep: the 8 pairs of the tiny suite make enough blocks for a verdict.
      QPSWATCH_INSTANCE_SECONDS: '0',
      // The instructions lane would add minutes under valgrind: this test is about the idle-state hold.
      QPSWATCH_INSTRUCTION_COUNTER: 'off',
    };
    const credentials = [
      'setpriv',
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      '--no-new-privs',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
    ];
    const command = [
      ...credentials,
      'env',
      '-i',
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      process.execPath,
      stage('opt/qpswatch/bin/qpswatch.js'),
      '--config',
      configFile,
      ...args,
    ];
    // Paths go in as arguments, never into the script text.
    const withNode = withRule
      ? [
          'unshare',
          '--mount',
          '--propagation',
          'private',
          '--',
          'bash',
          '-c',
          'mount --bind "$0" "$1" && shift && exec "$@"',
          standIn,
          DEVICE,
          ...command,
        ]
      : command;
    return spawnSync(withNode[0]!, withNode.slice(1), { encoding: 'utf8', cwd: holdRoot, timeout: 5 * 60_000 });
  }

  test("install.sh installs the rule: group qpswatch, mode 0660, for the kernel's cpu_dma_latency node", () => {
    assert.deepEqual(installedRule(), { group: 'qpswatch', mode: 0o660 });
    applyRuleByHand();
    const standInNode = statSync(standIn);
    assert.ok(standInNode.isCharacterDevice());
    assert.equal(standInNode.rdev, statSync(DEVICE).rdev, 'the same kernel device');
    assert.equal(standInNode.mode & 0o777, 0o660);
    assert.equal(statSync(DEVICE).mode & 0o777, 0o600, "the host's own node is left as the kernel made it");
  });

  test("without the rule the unit's account cannot hold them, and qpswatch host names the udev rule as the fix", () => {
    const host = asService(['host', '--json'], false);
    assert.equal(host.status, 0, host.stderr);
    const facts = JSON.parse(host.stdout) as {
      idleStatesHeld: boolean;
      idleStatesHold: { held: boolean; reason: string; fix: string };
    };
    assert.equal(facts.idleStatesHeld, false);
    assert.equal(facts.idleStatesHold.reason, `${DEVICE}: EACCES`);
    assert.match(
      facts.idleStatesHold.fix,
      /not writable by group qpswatch: install the udev rule .*90-qpswatch-cpu-dma-latency\.rules/,
    );
    assert.doesNotMatch(facts.idleStatesHold.fix, /run as root/);
  });

  test('with the rule applied, qpswatch host says held', () => {
    const host = asService(['host', '--json'], true);
    assert.equal(host.status, 0, host.stderr);
    const facts = JSON.parse(host.stdout) as { idleStatesHeld: boolean; idleStatesHold: { held: boolean } };
    assert.equal(facts.idleStatesHold.held, true, host.stdout);
    assert.equal(facts.idleStatesHeld, true);
  });

  test("with the rule applied, a session of the unit's account records idleStatesHeld=true", async () => {
    const compare = asService(
      [
        'compare',
        '--baseline',
        'relaxed',
        '--candidate',
        'durable',
        '--suite',
        suiteFile,
        '--pairs',
        '8',
        '--format',
        'json',
      ],
      true,
    );
    assert.equal(compare.status, 0, compare.stderr);
    assert.doesNotMatch(compare.stderr, /idle states not held/);
    const sessionId = (JSON.parse(compare.stdout) as { sessionId: number }).sessionId;
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(serviceState), readonly: true });
    try {
      const session = await store.getSession(sessionId);
      assert.equal(session?.settings['idleStatesHeld'], true);
      assert.equal(session?.settings['idleHoldReason'], '');
    } finally {
      await store.close();
    }
    assert.equal(lstatSync(defaultSqlitePath(serviceState)).uid, NOBODY, "the store is the service account's");
  });
});
