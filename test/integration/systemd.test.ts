import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test, type TestContext } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';

/**
 * The systemd unit and its installer: systemd's own checks of the unit (verify, and the offline security score),
 * the settings that must never appear, and install.sh run into a throw-away root (QPSWATCH_ROOT) and removed again.
 */
const systemdDir = join(projectRoot, 'systemd');
const unitText = readFileSync(join(systemdDir, 'qpswatch.service'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'qpswatch-systemd-'));
after(() => rmSync(work, { recursive: true, force: true }));

const analyzeMissing = spawnSync('systemd-analyze', ['--version']).error !== undefined;
const SKIP_REASON = 'systemd-analyze is not installed (Debian: apt-get install systemd)';
const MAX_EXPOSURE = 5.0;

function sh(cmd: string, args: readonly string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    timeout: 120_000,
  });
  if (result.error !== undefined) throw result.error;
  return result;
}

/** Active `Key=value` lines of a unit, comments left out; a key may repeat. */
function settings(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m === null) continue;
    map.set(m[1]!, [...(map.get(m[1]!) ?? []), m[2]!]);
  }
  return map;
}

/** A copy of the unit whose ExecStart names files that exist here: this node and this checkout's bin. */
function runnableUnit(name: string, text = unitText): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'qpswatch.service');
  writeFileSync(
    file,
    text.replace('/usr/bin/node ', `${process.execPath} `).replaceAll('/opt/qpswatch/', `${projectRoot}/`),
  );
  return file;
}

/** systemd-analyze prints problems on stderr and still exits 0 for many (an unknown key is a warning). */
function assertVerifies(t: TestContext, file: string): void {
  const result = sh('systemd-analyze', ['verify', file]);
  t.diagnostic(
    `systemd-analyze verify: exit ${result.status}, output: ${JSON.stringify(result.stdout + result.stderr)}`,
  );
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(
    result.stderr.split('\n').filter((l) => l.includes('qpswatch')),
    [],
  );
}

describe('the qpswatch unit', () => {
  const unit = settings(unitText);

  test('keeps /proc/stat readable and V8 working: no ProcSubset=pid, no MemoryDenyWriteExecute', () => {
    assert.equal(unit.has('MemoryDenyWriteExecute'), false);
    assert.deepEqual(
      (unit.get('ProcSubset') ?? []).filter((v) => v === 'pid'),
      [],
    );
  });

  test('stops by SIGTERM to the daemon only, as a fixed user, with its folders from systemd', () => {
    const one = (key: string): string | undefined => unit.get(key)?.at(-1);
    assert.equal(one('Type'), 'exec');
    assert.equal(one('KillMode'), 'mixed');
    assert.equal(one('Restart'), 'on-failure');
    assert.equal(one('User'), 'qpswatch');
    assert.equal(unit.has('DynamicUser'), false);
    for (const key of ['StateDirectory', 'CacheDirectory', 'LogsDirectory', 'ConfigurationDirectory'])
      assert.equal(one(key), 'qpswatch', key);
    assert.match(one('ExecStart') ?? '', / --config \/etc\/qpswatch\/qpswatch\.yaml daemon$/);
  });

  test('may open /dev/cpu_dma_latency and no other device: the idle-state hold works under it', () => {
    assert.deepEqual(unit.get('DevicePolicy'), ['closed']);
    assert.deepEqual(unit.get('DeviceAllow'), ['/dev/cpu_dma_latency rw']);
    // A private /dev has no cpu_dma_latency node: with PrivateDevices=yes the DeviceAllow= line could never be used.
    assert.equal(unit.has('PrivateDevices'), false);
    assert.deepEqual(unit.get('Group'), ['qpswatch'], 'the udev rule gives the device to this group');
  });

  test('passes systemd-analyze verify', (t) => {
    if (analyzeMissing) return t.skip(SKIP_REASON);
    assertVerifies(t, runnableUnit('verify'));
  });

  test('verify does catch a broken copy (so a clean verify means something)', (t) => {
    if (analyzeMissing) return t.skip(SKIP_REASON);
    const missingBinary = runnableUnit('broken-exec', unitText.replace('/usr/bin/node ', '/nonexistent/node '));
    const missing = sh('systemd-analyze', ['verify', missingBinary]);
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /nonexistent\/node/);
    const typo = sh('systemd-analyze', [
      'verify',
      runnableUnit('typo', unitText.replace('KillMode=mixed', 'KilMode=mixed')),
    ]);
    assert.match(typo.stderr, /Unknown key 'KilMode'/);
  });

  test(`scores an exposure of ${MAX_EXPOSURE} or less in systemd-analyze security`, (t) => {
    if (analyzeMissing) return t.skip(SKIP_REASON);
    assertExposure(t, runnableUnit('security'));
  });
});

/** The unit with a drop-in's lines after its own, as systemd reads a unit and its qpswatch.service.d/ files. */
const profilingDropIn = readFileSync(join(systemdDir, 'qpswatch.service.d', 'profiling.conf'), 'utf8');
const profilingUnit = `${unitText}\n${profilingDropIn}`;

function assertExposure(t: TestContext, file: string): void {
  const result = sh('systemd-analyze', ['security', '--offline=true', '--no-pager', file]);
  const line = /Overall exposure level for qpswatch\.service: (\d+(?:\.\d+)?)\b.*/.exec(result.stdout);
  assert.ok(line !== null, `no exposure line in:\n${result.stdout}${result.stderr}`);
  t.diagnostic(line[0]);
  assert.ok(Number(line[1]) <= MAX_EXPOSURE, line[0]);
}

describe('the profiling drop-in', () => {
  test('adds back perf_event_open, ptrace and process_vm_readv, and no whole group', () => {
    assert.deepEqual(settings(profilingDropIn).get('SystemCallFilter'), ['perf_event_open ptrace process_vm_readv']);
    assert.deepEqual([...settings(profilingDropIn).keys()], ['SystemCallFilter']);
  });

  test('the unit without it keeps @debug out; with it, perf_event_open is allowed', (t) => {
    if (analyzeMissing) return t.skip(SKIP_REASON);
    const debugLine = (file: string): string =>
      sh('systemd-analyze', ['security', '--offline=true', '--no-pager', file])
        .stdout.split('\n')
        .find((l) => l.includes('SystemCallFilter=~@debug')) ?? '';
    assert.match(debugLine(runnableUnit('no-profiling')), /@debug is not included/);
    assert.match(debugLine(runnableUnit('profiling', profilingUnit)), /perf_event_open is allowed/);
  });

  test(`with it the unit passes verify and still scores ${MAX_EXPOSURE} or less`, (t) => {
    if (analyzeMissing) return t.skip(SKIP_REASON);
    assertVerifies(t, runnableUnit('profiling-verify', profilingUnit));
    assertExposure(t, runnableUnit('profiling-security', profilingUnit));
  });
});

describe('install.sh into a QPSWATCH_ROOT', () => {
  const root = join(work, 'root');
  mkdirSync(root);
  const at = (path: string): string => join(root, path);
  const installer = join(systemdDir, 'install.sh');
  const install = (...args: string[]): SpawnSyncReturns<string> =>
    sh('bash', [installer, ...args], { QPSWATCH_ROOT: root });
  const mode = (path: string): number => statSync(at(path)).mode & 0o777;
  const isRoot = process.getuid?.() === 0;

  test('installs the program, the unit, and a config and env file with their modes', (t) => {
    const result = install('--no-build');
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout,
      /would run: useradd --system --gid qpswatch --home-dir \/var\/lib\/qpswatch .*--shell \/usr\/sbin\/nologin/,
    );
    assert.match(result.stdout, /systemctl daemon-reload/);
    assert.match(result.stdout, /systemctl enable --now qpswatch/);
    assert.match(result.stdout, /journalctl -u qpswatch/);

    for (const file of ['bin/qpswatch.js', 'package-lock.json', 'src/cli/run.ts', 'config/suites/small-server.yaml']) {
      assert.ok(existsSync(at(`opt/qpswatch/${file}`)), file);
    }
    assert.equal(mode('opt/qpswatch/package.json'), 0o644);
    assert.equal(mode('opt/qpswatch/src'), 0o755);

    const unitFile = 'etc/systemd/system/qpswatch.service';
    assert.equal(mode(unitFile), 0o644);
    const node = realpathSync(sh('bash', ['-c', 'command -v node']).stdout.trim());
    assert.equal(
      settings(readFileSync(at(unitFile), 'utf8')).get('ExecStart')?.[0],
      `${node} /opt/qpswatch/bin/qpswatch.js --config /etc/qpswatch/qpswatch.yaml daemon`,
    );
    assert.equal(mode('etc/qpswatch/qpswatch.yaml'), 0o644);
    assert.equal(mode('etc/qpswatch/qpswatch.env'), 0o600);
    if (isRoot) assert.equal(statSync(at('etc/qpswatch/qpswatch.env')).uid, 0);
    const rule = 'etc/udev/rules.d/90-qpswatch-cpu-dma-latency.rules';
    assert.equal(
      readFileSync(at(rule), 'utf8'),
      readFileSync(join(systemdDir, '90-qpswatch-cpu-dma-latency.rules'), 'utf8'),
    );
    assert.equal(mode(rule), 0o644);
    if (isRoot) assert.equal(statSync(at(rule)).uid, 0);
    assert.match(
      result.stdout,
      /would run: udevadm trigger --action=change --subsystem-match=misc --sysname-match=cpu_dma_latency/,
    );
    if (!analyzeMissing) assertVerifies(t, at(unitFile));
  });

  test('the config it installs passes config check', async () => {
    const result = await runCli(['config', 'check', at('etc/qpswatch/qpswatch.yaml')]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /: ok \(0 targets\)/);
  });

  test("a second install replaces the program but keeps a person's config and secrets", () => {
    writeFileSync(at('etc/qpswatch/qpswatch.yaml'), 'log_level: debug\n');
    writeFileSync(at('etc/qpswatch/qpswatch.env'), 'QPSWATCH_SMTP_PASSWORD=kept\n');
    writeFileSync(at('opt/qpswatch/left-over.js'), '');
    const result = install('--no-build');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(readFileSync(at('etc/qpswatch/qpswatch.yaml'), 'utf8'), 'log_level: debug\n');
    assert.equal(readFileSync(at('etc/qpswatch/qpswatch.env'), 'utf8'), 'QPSWATCH_SMTP_PASSWORD=kept\n');
    assert.equal(existsSync(at('opt/qpswatch/left-over.js')), false);
    assert.equal(existsSync(at('opt/qpswatch.new')) || existsSync(at('opt/qpswatch.old')), false);
  });

  test('--uninstall removes the unit and the program, and keeps config and results', () => {
    mkdirSync(at('var/lib/qpswatch'), { recursive: true });
    writeFileSync(at('var/lib/qpswatch/qpswatch.sqlite'), 'results');
    const result = install('--uninstall');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /systemctl disable --now qpswatch\.service/);
    assert.equal(existsSync(at('etc/systemd/system/qpswatch.service')), false);
    assert.equal(
      existsSync(at('etc/udev/rules.d/90-qpswatch-cpu-dma-latency.rules')),
      false,
      'the device goes back to root alone',
    );
    assert.equal(existsSync(at('opt/qpswatch')), false);
    assert.ok(existsSync(at('etc/qpswatch/qpswatch.yaml')));
    assert.ok(existsSync(at('var/lib/qpswatch/qpswatch.sqlite')));
  });

  test('--uninstall --purge removes config, results and the user too', () => {
    const result = install('--uninstall', '--purge');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /would run: userdel qpswatch/);
    for (const dir of ['etc/qpswatch', 'var/lib/qpswatch', 'opt/qpswatch'])
      assert.equal(existsSync(at(dir)), false, dir);
  });

  test('bad input: one line naming the problem, exit 2', () => {
    const purgeAlone = install('--purge');
    assert.equal(purgeAlone.status, 2);
    assert.equal(purgeAlone.stderr.trim(), 'qpswatch install: --purge goes with --uninstall');
    const prefix = sh('bash', [installer, '--no-build'], { QPSWATCH_ROOT: root, QPSWATCH_PREFIX: '/opt/q watch' });
    assert.equal(prefix.status, 2);
    assert.match(prefix.stderr, /QPSWATCH_PREFIX=\/opt\/q watch: use only letters/);
    const unknown = install('--force');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown option '--force'/);
  });
});
