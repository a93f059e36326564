import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { messageLines } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';
import { ProcessWatch, reapersOf, untilNone, type SeenProcess } from '../helpers/processes.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * A CLI compare killed with SIGKILL (the OOM killer, a `kill -9`, a closed SSH session's hard kill) cannot stop its
 * servers itself: exec's reaper kills them and sysbench as the compare dies, and the next command that starts
 * servers removes the datadirs and password files the session left, and says so. The compare is started from a
 * folder of user nobody's holding Lua modules sysbench would load from its working folder: they never run.
 * "Nothing left" means every process the compare started, found by descent while it ran (ProcessWatch: the servers,
 * mariadb-install-db, sysbench and exec's reaper, whose command line names no folder of the test), and every reaper
 * of this checkout.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-killed-')));
const stateDir = join(dir, 'state');
const sealed = join(dir, 'sealed');
const MARKER = join(sealed, 'ran-as-root');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Processes (pid, program) whose command line names this test's folder: its servers and sysbench. */
function processesOfThisTest(): Array<{ pid: number; program: string }> {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .flatMap((p) => {
      try {
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
        if (!argv.some((a) => a.includes(stateDir))) return [];
        if (readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) return [];
        return [{ pid: Number(p), program: argv[0]!.split('/').at(-1)! }];
      } catch {
        return [];
      }
    });
}

/** Everything of qpswatch's still running: what a watch saw of the commands, their servers by folder, any reaper. */
function leftovers(...watches: ProcessWatch[]): Array<{ pid: number; program: string }> {
  const found = new Map<number, string>();
  for (const p of [...watches.flatMap((w) => w.left()), ...reapersOf(projectRoot)]) found.set(p.pid, p.program);
  for (const p of processesOfThisTest()) found.set(p.pid, p.program);
  return [...found].map(([pid, program]) => ({ pid, program }));
}

/** The CLI as a person runs it, its processes watched until it ends. */
async function runWatched(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stderr: string; watch: ProcessWatch }> {
  const child = spawn(process.execPath, [join(projectRoot, 'bin', 'qpswatch.js'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd,
    env: {
      PATH: process.env['PATH']!,
      HOME: '/root',
      QPSWATCH_LOG_FORMAT: 'json',
      QPSWATCH_INSTRUCTION_COUNTER: 'off',
    },
  });
  const watch = new ProcessWatch(child.pid!);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = new Promise<number | null>((resolve) => child.once('close', resolve));
  const timer = setInterval(() => watch.sample(), 50);
  try {
    return { code: await code, stderr, watch };
  } finally {
    clearInterval(timer);
  }
}

/** What a session keeps only while it runs: datadirs, snapshots, tmp and files folders, sysbench.cnf (a password). */
function sessionData(): string[] {
  const work = join(stateDir, 'work');
  const found: string[] = [];
  const walk = (path: string, depth: number): void => {
    for (const entry of existsSync(path) ? readdirSync(path, { withFileTypes: true }) : []) {
      const full = join(path, entry.name);
      if (depth === 3 && ['data', 'snapshot', 'tmp', 'files', 'sysbench.cnf'].includes(entry.name)) found.push(full);
      else if (entry.isDirectory() && depth < 3) walk(full, depth + 1);
    }
  };
  walk(work, 0);
  return found;
}

test(
  'a compare killed with SIGKILL leaves no server or sysbench running; the next command removes its data and ' +
    'password files and says so',
  { skip: process.getuid?.() === 0 ? false : 'needs root (a planted Lua module of user nobody)' },
  async () => {
    mkdirSync(sealed, { mode: 0o700 });
    // The folder the compare is started from: nobody's, with the modules sysbench's scripts require.
    const cwd = join(dir, 'theirs');
    mkdirSync(cwd, { mode: 0o777 });
    for (const module of ['oltp_common.lua', 'qpswatch_common.lua'])
      writeFileSync(join(cwd, module), `os.execute("touch ${MARKER}")\n`, { mode: 0o644 });
    spawnSync('chown', ['-R', 'nobody', cwd]);
    const config = join(dir, 'qpswatch.yaml');
    writeFileSync(
      config,
      `state_dir: ${stateDir}\n` +
        `server_profiles_dir: ${testServerProfilesDir()}\n` +
        `cache_dir: ${join(dir, 'cache')}\nhost_lock: ${join(dir, 'host.lock')}\n` +
        'log_level: info\ntargets:\n' +
        '  a: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }\n',
    );
    const suite = join(dir, 'long.yaml');
    writeFileSync(
      suite,
      'name: long\ndescription: a long test to be killed in\nbudget_minutes: 60\n' +
        'load: { tables: 1, table_size: 1000 }\nwarmup: { script: oltp_read_only, seconds: 1, threads: 1 }\n' +
        'tests:\n  - { name: long, script: oltp_read_only, seconds: 120, threads: [1] }\n',
    );
    const child = spawn(
      process.execPath,
      [join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, '--log-format', 'json', 'compare'].concat([
        '--baseline',
        'a',
        '--candidate',
        'a',
        '--suite',
        suite,
      ]),
      { stdio: ['ignore', 'ignore', 'pipe'], cwd },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const watch = new ProcessWatch(child.pid!);
    try {
      // Both servers up and sysbench measuring: the session holds two datadirs and two password files.
      let running: SeenProcess[] = [];
      for (let i = 0; i < 1800; i++) {
        running = watch.sample();
        const servers = running.filter((p) => p.program === 'mariadbd').length;
        if (servers === 2 && running.some((p) => p.program === 'sysbench')) break;
        if (child.exitCode !== null) assert.fail(`the compare ended first:\n${stderr.slice(-3000)}`);
        await sleep(100);
      }
      assert.ok(
        running.some((p) => p.program === 'sysbench'),
        `no session measuring: ${JSON.stringify(running)}\n${stderr.slice(-2000)}`,
      );
      watch.sample();
      child.kill('SIGKILL');
      await exited;
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }

    // The watch saw what there was to leave behind, so "nothing left" below is not said of nothing.
    const programs = new Set(watch.all().map((p) => p.program));
    assert.ok(programs.has('mariadbd') && programs.has('sysbench'), JSON.stringify(watch.all()));
    assert.ok(
      watch.all().some((p) => p.cmdline.includes('/exec/reaper-main.js')),
      `the reaper is one of the compare's processes: ${JSON.stringify(watch.all())}`,
    );
    assert.deepEqual(await untilNone(() => leftovers(watch)), [], 'processes outlived the killed compare');
    assert.notDeepEqual(sessionData(), [], 'the killed session left its data (nothing could remove it)');

    // The next command that starts servers cleans up first, and says so, before it finds its own mistake.
    const next = await runWatched(['--config', config, 'compare', '--baseline', 'a', '--candidate', 'nope'], dir);
    assert.equal(next.code, 2, next.stderr);
    const warnings = next.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    assert.ok(
      warnings.includes('a session cut off by a killed qpswatch left its datadirs and password files: removed them'),
      next.stderr,
    );
    assert.match(messageLines(next.stderr).join('\n'), /target 'nope' is not defined/);
    assert.deepEqual(sessionData(), [], 'no datadir, snapshot or password file is left');
    assert.deepEqual(await untilNone(() => leftovers(watch, next.watch)), [], 'the next command left a process');
    assert.ok(!existsSync(MARKER), "sysbench loaded a Lua module of nobody's from the compare's working folder");

    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir), readonly: true });
    try {
      const [session] = await store.listSessions({ limit: 1 });
      assert.equal(session?.state, 'interrupted');
    } finally {
      await store.close();
    }
  },
);
