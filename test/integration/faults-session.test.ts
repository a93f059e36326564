import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { messageLines, type CliResult } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { projectRoot } from '../helpers/paths.js';
import { processesUnder } from '../helpers/processes.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * Faults injected for real into one compare session: the server killed or frozen, sysbench killed or printing
 * garbage. Each time the session ends failed with one line that says what broke, what was measured before stays
 * stored (and never counts), and nothing the session started is left running.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-faults-')));
after(() => {
  for (const { pid } of processesUnder(dir)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const LONG_SECONDS = 40;
// A frozen server's run is stopped only at its time plus the run's grace (run_grace_seconds, 60 s by default): 10 s
// of test and 10 s of grace still leave the run going well after the fault (2 s into it), without a long wait.
const FROZEN_LONG_SECONDS = 10;
const FROZEN_GRACE_SECONDS = 10;
// A frozen server never takes SHUTDOWN: 10 s of waiting for it, not the default 120, before the signals; the
// frozen-server case knows it never will, and waits 2 s.
const STOP_SECONDS = 10;
const FROZEN_STOP_SECONDS = 2;

function writeSetup(
  name: string,
  { longSeconds = LONG_SECONDS, stopSeconds = STOP_SECONDS, graceSeconds = 60 } = {},
): { config: string; suite: string; stateDir: string } {
  const root = join(dir, name);
  mkdirSync(root);
  const stateDir = join(root, 'state');
  const config = join(root, 'qpswatch.yaml');
  // Whole runs of 2 rounds, the fewest that can reach a p-value of 1/6 (so alpha 0.2): the faults come in round 1.
  writeFileSync(
    config,
    `state_dir: ${stateDir}\n` +
      `server_profiles_dir: ${testServerProfilesDir()}\n` +
      `log_level: info\nalpha: 0.2\nserver_stop_timeout_seconds: ${stopSeconds}\n` +
      `run_grace_seconds: ${graceSeconds}\n` +
      `targets:\n  a: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: ` +
      `relaxed }\n`,
  );
  const suite = join(root, 'faults.yaml');
  writeFileSync(
    suite,
    'name: faults\ndescription: a short test, then a long one to break\nload: { tables: 1, table_size: 1000 }\n' +
      'warmup: { script: oltp_point_select, seconds: 1, threads: 1 }\n' +
      (`tests:\n  - { name: point-query, script: oltp_point_select, seconds: ` +
        `1, threads: [1] }\n  - { name: long, script: oltp_read_only, seconds: ` +
        `${longSeconds}, threads: [1] }\n`),
  );
  return { config, suite, stateDir };
}

/** Runs one whole-run session and calls `inject` once the long test has started; resolves when qpswatch exits. */
async function sessionWithFault(
  setup: { config: string; suite: string },
  inject: () => void,
  env: Record<string, string> = {},
): Promise<CliResult & { seconds: number }> {
  const args = [
    '--config',
    setup.config,
    '--log-format',
    'json',
    'compare',
    '--baseline',
    'a',
    '--candidate',
    'a',
    '--suite',
    setup.suite,
    '--rounds',
    '2',
  ];
  const child = spawn(process.execPath, [join(projectRoot, 'bin', 'qpswatch.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, QPSWATCH_INSTRUCTION_COUNTER: 'off', ...env },
  });
  let stdout = '';
  let stderr = '';
  let injected = false;
  const started = Date.now();
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    if (!injected && stderr.includes('long t1')) {
      injected = true;
      // Let the run get going, then break it.
      setTimeout(inject, 2000);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  assert.ok(injected, `the long test never started:\n${stderr.slice(-2000)}`);
  return { code, stdout, stderr, seconds: (Date.now() - started) / 1000 };
}

async function sessionState(
  stateDir: string,
): Promise<{ state: string | undefined; error: string | null | undefined; samples: number; counted: number }> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
  try {
    const [session] = await store.listSessions({ limit: 1 });
    assert.ok(session !== undefined);
    return {
      state: session.state,
      error: session.error,
      samples: (await store.samplesForSession(session.id)).length,
      counted: (await store.completedSamples(session.id)).length,
    };
  } finally {
    await store.close();
  }
}

function onlyServer(folder: string): number {
  const servers = processesUnder(folder, ['mariadbd']);
  assert.equal(servers.length, 1, `one server runs in the whole-run design: ${JSON.stringify(servers)}`);
  return servers[0]!.pid;
}

describe('faults in a compare session', () => {
  test(
    'mysqld killed (SIGKILL) mid-test: the session fails with one line ' + 'naming the server, nothing left running',
    async () => {
      const setup = writeSetup('server-kill');
      const result = await sessionWithFault(setup, () => process.kill(onlyServer(setup.stateDir), 'SIGKILL'));
      assert.equal(result.code, 1, result.stderr.slice(-3000));
      const lines = messageLines(result.stderr);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0]!, /long\.t1/);
      assert.match(lines[0]!, /server .*(died|killed|signal 9|SIGKILL)/i);
      assert.ok(
        result.seconds < LONG_SECONDS + 30,
        `ended soon after the fault, not after the test's time: ${result.seconds} s`,
      );
      const stored = await sessionState(setup.stateDir);
      assert.equal(stored.state, 'failed');
      assert.ok(stored.samples >= 1, 'the sample of the first test is kept');
      assert.equal(stored.counted, 0);
      assert.deepEqual(processesUnder(dir), []);
    },
  );

  test(
    'mysqld frozen (SIGSTOP) mid-test: the run times out, the session fails ' +
      'with one line, the frozen server is stopped, and the next session runs',
    async () => {
      const setup = writeSetup('server-stop', {
        longSeconds: FROZEN_LONG_SECONDS,
        stopSeconds: FROZEN_STOP_SECONDS,
        graceSeconds: FROZEN_GRACE_SECONDS,
      });
      const result = await sessionWithFault(setup, () => process.kill(onlyServer(setup.stateDir), 'SIGSTOP'));
      assert.equal(result.code, 1, result.stderr.slice(-3000));
      const lines = messageLines(result.stderr);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0]!, /long\.t1/);
      assert.match(lines[0]!, /ran longer than/);
      const stored = await sessionState(setup.stateDir);
      assert.equal(stored.state, 'failed');
      assert.equal(stored.counted, 0);
      assert.deepEqual(processesUnder(dir), [], 'the frozen server was stopped');
    },
  );

  test('sysbench killed mid-test: the session fails with one line naming the test and the signal', async () => {
    const setup = writeSetup('sysbench-kill');
    const result = await sessionWithFault(setup, () => {
      const [bench] = processesUnder(setup.stateDir, ['sysbench']);
      assert.ok(bench !== undefined, 'sysbench runs');
      process.kill(bench.pid, 'SIGKILL');
    });
    assert.equal(result.code, 1, result.stderr.slice(-3000));
    const lines = messageLines(result.stderr);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /long\.t1/);
    assert.match(lines[0]!, /SIGKILL|signal/);
    assert.equal((await sessionState(setup.stateDir)).state, 'failed');
    assert.deepEqual(processesUnder(dir), []);
  });

  test(
    'sysbench printing garbage: the session fails with one line naming the ' + 'test and the log, the garbage escaped',
    async () => {
      const setup = writeSetup('sysbench-garbage');
      // A sysbench first on PATH that does the real work but prints garbage for the measured runs of the long test.
      const bin = join(dir, 'sysbench-garbage', 'bin');
      mkdirSync(bin);
      const fake = join(bin, 'sysbench');
      writeFileSync(
        fake,
        `#!/bin/sh\ncase "$*" in *oltp_read_only*run*) printf 'SQL ` +
          `statistics:\\n\\033]0;pwned\\007 queries: lots\\n'; exit 0;; ` +
          `esac\nexec /usr/bin/sysbench "$@"\n`,
      );
      chmodSync(fake, 0o755);
      const result = await sessionWithFault(setup, () => undefined, {
        PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
      });
      assert.equal(result.code, 1, result.stderr.slice(-3000));
      const lines = messageLines(result.stderr);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0]!, /long\.t1/);
      assert.match(lines[0]!, /sysbench\.log/);
      assert.doesNotMatch(result.stderr, /\u001b\]/, 'no escape sequence reaches the terminal');
      assert.equal((await sessionState(setup.stateDir)).state, 'failed');
      assert.deepEqual(processesUnder(dir), []);
    },
  );

  test('a second Ctrl-C exits at once and takes mysqld and sysbench with it, a frozen server too', async () => {
    const setup = writeSetup('second-sigint');
    let child: ReturnType<typeof spawn> | undefined;
    const args = [
      '--config',
      setup.config,
      '--log-format',
      'json',
      'compare',
      '--baseline',
      'a',
      '--candidate',
      'a',
      '--suite',
      setup.suite,
      '--rounds',
      '2',
    ];
    child = spawn(process.execPath, [join(projectRoot, 'bin', 'qpswatch.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, QPSWATCH_INSTRUCTION_COUNTER: 'off' },
    });
    let stderr = '';
    const closed = new Promise<number | null>((resolve) => child!.on('close', resolve));
    await new Promise<void>((resolve) => {
      child!.stderr!.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (stderr.includes('long t1')) resolve();
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(processesUnder(setup.stateDir).length >= 2, 'mysqld and sysbench run');
    // A frozen server answers no SHUTDOWN: the graceful stop the first Ctrl-C starts would wait for it.
    process.kill(onlyServer(setup.stateDir), 'SIGSTOP');
    const sent = Date.now();
    child.kill('SIGINT');
    // Two signals sent back to back may reach the process as one (a pending signal is not queued twice).
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGINT');
    const code = await closed;
    assert.equal(code, 130);
    assert.ok(Date.now() - sent < 5000, `exited at once: ${Date.now() - sent} ms`);
    assert.match(stderr, /stopped at once by a second SIGINT; killed \d+ child process group/);
    // SIGKILL is delivered at once; the kernel reaps within moments.
    for (let i = 0; i < 50 && processesUnder(setup.stateDir).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(processesUnder(setup.stateDir), []);
    child = undefined;
  });
});
