import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findAccount } from '../../src/server/index.js';
import { messageLines, runCli, type CliResult } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';

/**
 * Issue 32's traps, each planted for real by user `nobody` (runuser), and each refused in one line by every command
 * that would use it, before anything of it is used: the state folder, a symlinked state folder, a stored install
 * path outside state_dir, a lock file planted in /run/lock, a writable config, suite, Lua script, build profile and
 * server profile, a password file every user may read, and links sprayed where export writes. nobody's programs
 * (a mariadbd, a Lua script, a compiler) touch a marker file in a folder only root may write: it must never exist.
 */
const asRoot = process.getuid?.() === 0;
const nobody = findAccount('nobody');
const hasUnshare = spawnSync('unshare', ['--version']).error === undefined;

const TAG1 = 'mariadb-10.11.1';
const TAG2 = 'mariadb-10.11.2';
const KEY = '0123456789abcdef';

describe('traps planted by nobody, met by every command', { skip: asRoot && nobody ? false : 'needs root' }, () => {
  const root = mkdtempSync('/tmp/qpsw-cli-traps-');
  chmodSync(root, 0o755);
  // Stands for /var/tmp: every user may create names in it.
  const shared = join(root, 'shared');
  // Only root may write here: if the marker appears, a program of nobody's ran as root.
  const sealed = join(root, 'sealed');
  const MARKER = join(sealed, 'ran-as-root');
  const good = join(root, 'good');
  const repo = join(root, 'upstream');
  const state = join(good, 'state');
  const csv = join(good, 'results.csv');
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A program of nobody's: run by root it leaves the marker; it also says what a mariadbd says to --version. */
  const EVIL_SH = `#!/bin/sh\ntouch ${MARKER}\necho "mariadbd  Ver 10.11.2-MariaDB for debian-linux-gnu"\n`;
  const EVIL_LUA = `os.execute("touch ${MARKER}")\nfunction event() end\n`;

  function asNobody(...argv: string[]): void {
    const r = spawnSync('runuser', ['-u', 'nobody', '--', ...argv], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${argv.join(' ')}: ${r.stderr}`);
  }
  /** A folder of nobody's (0777, as such folders are), with files of nobody's in it. */
  function nobodyFolder(name: string, files: Record<string, { text: string; mode?: string }> = {}): string {
    const dir = join(shared, name);
    asNobody('mkdir', '-p', '-m', '0777', dir);
    for (const [file, { text, mode }] of Object.entries(files)) {
      const path = join(dir, file);
      asNobody('mkdir', '-p', join(path, '..'));
      const r = spawnSync('runuser', ['-u', 'nobody', '--', 'tee', path], { input: text, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      asNobody('chmod', mode ?? '0644', path);
    }
    return dir;
  }

  /** A config of root's (0644 in a root folder) over root's good state, with `extra` lines. */
  function config(name: string, extra = '', stateDir = state): string {
    const file = join(good, `${name}.yaml`);
    writeFileSync(
      file,
      `state_dir: ${stateDir}\ncache_dir: ${join(good, 'cache')}\nhost_lock: ${join(good, 'host.lock')}\n` +
        // The builds these tests start fail at cmake at once: no need for a MariaDB build's free space. The daemons
        // they start serve no metrics (a port another daemon on the host may hold).
        'log_level: warn\nschedule: "0 0 1 1 *"\nmin_free_bytes: 1000000\nmetrics_port: 0\n' +
        `upstreams:\n  - { name: demo, remote: ${repo}, flavor: mariadb, series: "10.11", build_profile: demo, ` +
        'server_profile: relaxed }\n' +
        'targets:\n  a: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }\n' +
        extra,
      { mode: 0o644 },
    );
    chmodSync(file, 0o644);
    return file;
  }

  /** The argv of each command, as a person would type it; `config check` names the file. */
  const COMMANDS: Record<string, (file: string) => string[]> = {
    daemon: () => ['daemon'],
    once: () => ['once'],
    status: () => ['status'],
    discover: () => ['discover'],
    build: () => ['build', TAG2],
    prune: () => ['prune'],
    compare: () => ['compare', '--baseline', 'a', '--candidate', 'a'],
    profile: () => ['profile', '--baseline', 'a', 'a', 'update-index'],
    calibrate: () => ['calibrate', '--target', 'a'],
    check: () => ['check', TAG2],
    bisect: () => ['bisect', TAG2, 'update-index', '--good', TAG1],
    sessions: () => ['sessions'],
    show: () => ['show', '1'],
    report: () => ['report'],
    metrics: () => ['metrics', '--listen', '127.0.0.1:0'],
    accept: () => ['accept', TAG2],
    ack: () => ['ack', TAG2],
    invalid: () => ['invalid', TAG2],
    import: () => ['import', csv],
    export: () => ['export'],
    outbox: () => ['outbox', '--send'],
    host: () => ['host'],
    store: () => ['store', 'copy'],
    'config check': (file) => ['config', 'check', file],
  };
  const EVERY = Object.keys(COMMANDS);
  /** The commands that run a suite (its Lua scripts) or a server (its profile). */
  const SUITE_USERS = ['daemon', 'once', 'compare', 'profile', 'calibrate', 'check', 'bisect', 'config check'];
  const SERVER_PROFILE_USERS = ['daemon', 'once', 'compare', 'profile', 'calibrate', 'check', 'bisect', 'config check'];
  const BUILD_PROFILE_USERS = ['daemon', 'once', 'build', 'bisect', 'config check'];
  /** The commands that build, unpack or run what cache_dir holds (src/cli/state-folders.ts), and config check. */
  const CACHE_USERS = [
    'daemon',
    'once',
    'build',
    'prune',
    'compare',
    'profile',
    'calibrate',
    'check',
    'bisect',
    'config check',
  ];

  async function run(file: string, name: string): Promise<CliResult> {
    const argv = COMMANDS[name]!(file);
    // `config check` reads the file it names; every other command reads the one --config names.
    const args = name === 'config check' ? argv : ['--config', file, ...argv];
    return runCli(args, { timeoutMs: 60_000, cwd: good });
  }

  /**
   * Every command in `names` refuses, exit 2, with exactly one line on stderr: "qpswatch: " and `line`. `config check`
   * lists every problem of the file, one line each, each naming where in the file (`FILE: suite: ...`).
   */
  async function refusedBy(file: string, names: readonly string[], line: RegExp): Promise<void> {
    const results = await inBatches(names, (name) => run(file, name));
    names.forEach((name, i) => {
      const { code, stderr } = results[i]!;
      const lines = messageLines(stderr);
      assert.equal(code, 2, `${name}: exit ${code}\n${stderr}`);
      if (name !== 'config check') assert.equal(lines.length, 1, `${name}: ${lines.length} lines:\n${stderr}`);
      const where = name === 'config check' ? `(${escape(file)}: [\\w.\\[\\]]+: )?` : '';
      lines.forEach((l, n) =>
        assert.match(l, new RegExp(`^${n === 0 ? 'qpswatch: ' : ''}${where}${line.source}`), name),
      );
    });
    assert.ok(!existsSync(MARKER), 'a program of nobody ran as root');
  }

  before(async () => {
    mkdirSync(shared, { mode: 0o1777 });
    chmodSync(shared, 0o1777);
    mkdirSync(sealed, { mode: 0o700 });
    mkdirSync(good, { mode: 0o755 });
    makeRepo(repo, [TAG1, TAG2]);
    writeFileSync(
      csv,
      'flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o\nmariadb,10.11.6,point-query,1,1000,0.002,5,0,0,0\n',
    );
    // Root's own state: the releases known, so a command that takes a tag goes as far as it can.
    const discovered = await runCli(['--config', config('good'), 'discover'], { cwd: good });
    assert.equal(discovered.code, 0, discovered.stderr);
  });

  test('a state folder nobody made beforehand, with a mariadbd and a builds row of theirs in it', async () => {
    const theirs = join(shared, 'qpswatch-quickstart');
    asNobody('mkdir', '-m', '0777', theirs);
    // As the repro: nobody runs qpswatch there, then adds a program and a row pointing at it.
    const install = join(theirs, 'builds', KEY, 'install');
    nobodyFolder(join('qpswatch-quickstart', 'builds', KEY, 'install', 'sbin'), {
      mariadbd: { text: EVIL_SH, mode: '0755' },
    });
    asNobody(...plantRow(join(theirs, 'qpswatch.sqlite'), install));
    await refusedBy(
      config('nobody-state', '', theirs),
      EVERY,
      new RegExp(
        `state_dir ${theirs} belongs to user nobody \\(uid 65534\\), not to root or qpswatch's user: ` +
          // No "sudo rm -r" advice: the folder is another user's, and what they put in it is worth a look first.
          `another user may have made it beforehand; look at what is in it, and choose another state_dir$`,
      ),
    );
  });

  test("a symlinked state folder into nobody's open folder: refused; nothing of root's is written there", async () => {
    const open = nobodyFolder('open');
    const link = join(shared, 'qpswatch-state');
    asNobody('ln', '-s', open, link);
    await refusedBy(
      config('linked-state', '', link),
      EVERY,
      new RegExp(
        `state_dir ${link} is a symbolic link \\(to ${open}\\) made by user nobody \\(uid 65534\\): ` +
          `qpswatch never follows one there; remove it \\(sudo rm ${link}\\) or choose another state_dir$`,
      ),
    );
    assert.deepEqual(readdirSync(open), []);
  });

  test('a stored install path outside state_dir (anyone who can write the store) is refused, never run', async () => {
    const evil = nobodyFolder('evil-install', { 'sbin/mariadbd': { text: EVIL_SH, mode: '0755' } });
    // Rows under the very keys qpswatch gives TAG1 and TAG2 (a hash anyone can work out): the rows it looks up.
    const keys: Record<string, string> = { [TAG1]: buildKeyOf(TAG1), [TAG2]: buildKeyOf(TAG2) };
    /** A state folder of root's whose store has both releases built, their install folder nobody's. */
    async function plantedState(name: string): Promise<{ file: string; dir: string }> {
      const dir = join(good, name);
      const file = config(name, '', dir);
      const discovered = await runCli(['--config', file, 'discover'], { cwd: good });
      assert.equal(discovered.code, 0, discovered.stderr);
      for (const tag of [TAG1, TAG2]) {
        const planted = plantRow(join(dir, 'qpswatch.sqlite'), evil, tag, keys[tag]);
        const r = spawnSync(planted[0]!, planted.slice(1), { encoding: 'utf8' });
        assert.equal(r.status, 0, r.stderr);
      }
      return { file, dir };
    }
    const stored = (dir: string, tag: string): string =>
      `build ${keys[tag]} of "${tag}": the store names the install folder "${evil}", not ` +
      `${join(dir, 'builds', keys[tag]!, 'install')} (state_dir and the build key): qpswatch never runs a path the ` +
      'store names';

    // The commands that run a built release: refused in one line, exit 2, before any server starts.
    const cli = await plantedState('stored-cli');
    const runs: Array<{ argv: string[]; tag: string }> = [
      { argv: ['compare', '--baseline', TAG2, '--candidate', 'a'], tag: TAG2 },
      { argv: ['calibrate', '--target', TAG2], tag: TAG2 },
      { argv: ['profile', '--baseline', 'a', TAG2, 'update-index'], tag: TAG2 },
      { argv: ['check', TAG2], tag: TAG2 },
      // Every step's session runs the good end: it is checked before the first build.
      { argv: ['bisect', TAG2, 'update-index', '--good', TAG1], tag: TAG1 },
    ];
    const results = await inBatches(runs, ({ argv }) =>
      runCli(['--config', cli.file, ...argv], { timeoutMs: 120_000, cwd: good }),
    );
    results.forEach(({ code, stderr }, i) => {
      const { argv, tag } = runs[i]!;
      assert.equal(code, 2, `${argv[0]}: ${stderr}`);
      assert.equal(messageLines(stderr).length, 1, `${argv[0]}: ${stderr}`);
      assert.ok(messageLines(stderr)[0]!.startsWith(`qpswatch: ${stored(cli.dir, tag)};`), `${argv[0]}: ${stderr}`);
    });
    assert.ok(!existsSync(MARKER), 'a program of nobody ran as root');

    // The commands that build: the stored folder is never run; each says so in one line and builds the key where
    // state_dir and the key say (this test's upstream has no CMakeLists.txt, so that build fails).
    const building = (dir: string, tag: string): string => `${stored(dir, tag)}; building it here`;
    const build = await runCli(['--config', cli.file, 'build', TAG2], { timeoutMs: 120_000, cwd: good });
    assert.equal(build.code, 1, build.stderr);
    assert.deepEqual(
      warnings(build.stderr).filter((w) => w.includes('the store names')),
      [building(cli.dir, TAG2)],
      build.stderr,
    );
    assert.match(build.stdout, new RegExp(`^build of "${TAG2}" failed; log ${escape(join(cli.dir, 'builds'))}`));
    const once = await plantedState('stored-once');
    const cycle = await runCli(['--config', once.file, 'once'], { timeoutMs: 180_000, cwd: good });
    assert.equal(cycle.code, 1, cycle.stderr);
    assert.deepEqual(
      warnings(cycle.stderr).filter((w) => w.includes('the store names')),
      [building(once.dir, TAG1), building(once.dir, TAG2)],
      cycle.stderr,
    );
    assert.match(cycle.stdout, /^cycle done: 2 release\(s\) queued, 0 built, 2 build failure\(s\), 0 checked/m);
    const daemon = await plantedState('stored-daemon');
    const cycled = await daemonCycle(daemon.file);
    assert.equal(cycled.code, 0, cycled.stderr);
    assert.deepEqual(
      warnings(cycled.stderr).filter((w) => w.includes('the store names')),
      [building(daemon.dir, TAG1), building(daemon.dir, TAG2)],
      cycled.stderr,
    );

    // prune deletes only the folders state_dir and the key make: nobody's folder is not root's to delete.
    const pruned = await runCli(['--config', cli.file, 'prune'], { cwd: good });
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.ok(existsSync(join(evil, 'sbin', 'mariadbd')));
    assert.ok(!existsSync(MARKER), 'a program of nobody ran as root');
  });

  test(
    'a lock file nobody put in /run/lock keeps nothing from starting: the lock lives in /run/qpswatch',
    { skip: hasUnshare ? false : 'needs unshare(1) for a private /run' },
    () => {
      // No host_lock: the default. The commands run in a mount namespace of their own with a private /run.
      const file = config('default-lock').replace(/$/, '');
      writeFileSync(
        file,
        readFileSync(file, 'utf8')
          .replace(/^host_lock: .*\n/m, '')
          .replace('"10.11"', '"99.9"'),
      );
      const driver = join(projectRoot, 'dist', 'test', 'fixtures', 'trust', 'lock-trap.js');
      const r = spawnSync('unshare', ['--mount', '--propagation', 'private', process.execPath, driver, file, TAG2], {
        encoding: 'utf8',
        timeout: 180_000,
      });
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as Record<string, { code: number; stderr: string } | string | boolean>;
      assert.equal(out['planted'], 0, 'nobody planted the lock file');
      assert.equal(out['nobodyMadeRunQpswatch'], false, "nobody cannot make qpswatch's lock folder");
      const prune = out['prune'] as { code: number; stderr: string };
      assert.equal(prune.code, 0, prune.stderr);
      const compare = out['compare'] as { code: number; stderr: string };
      // It went past the lock: what stops it is the target, not a lock of nobody's.
      assert.deepEqual(messageLines(compare.stderr), [
        "qpswatch: target 'nope' is not defined and is not a built release: use one of a, add it under targets:, " +
          'or build the tag first (qpswatch build TAG)',
      ]);
      const daemon = out['daemon'] as { code: number; stderr: string };
      assert.equal(daemon.code, 0, daemon.stderr);
      assert.match(daemon.stderr, /"daemon started"/);
      assert.doesNotMatch(daemon.stderr, /host lock/);
      const once = out['once'] as { code: number; stdout: string; stderr: string };
      assert.equal(once.code, 0, once.stderr);
      assert.match(once.stdout, /^cycle done: 0 release\(s\) queued/m);
      // check takes the host first, then finds the tag: past the lock, what stops it is the tag.
      const check = out['check'] as { code: number; stderr: string };
      assert.deepEqual(messageLines(check.stderr), [
        'qpswatch: tag "nope" is not a known release of demo: run `qpswatch discover` to list them',
      ]);
      // build takes the host for its compile: it got that far (this upstream has no CMakeLists.txt).
      const build = out['build'] as { code: number; stdout: string; stderr: string };
      assert.equal(build.code, 1, build.stderr);
      assert.match(build.stdout, new RegExp(`^build of "${TAG2}" failed; log `));
      for (const r of [once, check, build]) assert.doesNotMatch(r.stderr, /host lock/);
      assert.equal(out['lockFolder'], 'root 755');
      assert.match(out['plantedAfter'] as string, /"pid":1/, "nobody's file is left as it was");
    },
  );

  test('a config others may write, or that belongs to nobody, is refused by every command', async () => {
    const writable = config('writable');
    chmodSync(writable, 0o666);
    await refusedBy(
      writable,
      EVERY,
      new RegExp(
        `config file ${writable} is writable by other users \\(mode 0666\\): any of them could change ` +
          `what qpswatch runs or reads as root; chmod go-w ${writable}$`,
      ),
    );
    // nobody's own config, naming their mariadbd as a target's server.
    const evil = nobodyFolder('evil-basedir', { 'sbin/mariadbd': { text: EVIL_SH, mode: '0755' } });
    const theirs = nobodyFolder('their-config', {
      'qpswatch.yaml': {
        text:
          `state_dir: ${state}\nhost_lock: ${join(good, 'host.lock')}\n` +
          `targets:\n  a: { kind: installed, flavor: mariadb, basedir: ${evil}, server_profile: relaxed }\n`,
      },
    });
    const file = join(theirs, 'qpswatch.yaml');
    await refusedBy(file, EVERY, new RegExp(`config file ${file}: ${theirs} belongs to user nobody`));
  });

  test('a suite in a folder of nobody, or a Lua script of theirs: refused by every command that runs it', async () => {
    const quick = readFileSync(join(projectRoot, 'config', 'suites', 'quick.yaml'), 'utf8');
    const suites = nobodyFolder('their-suites', { 'quick.yaml': { text: quick } });
    await refusedBy(
      config('their-suites', `suites_dir: ${suites}\n`),
      SUITE_USERS,
      new RegExp(`suite ${join(suites, 'quick.yaml')}: ${suites} belongs to user nobody \\(uid 65534\\)`),
    );
    const lua = nobodyFolder('their-lua', { 'evil.lua': { text: EVIL_LUA } });
    const suite = join(good, 'lua-trap.yaml');
    writeFileSync(suite, quick.replace('script: oltp_update_index', `script: ${join(lua, 'evil.lua')}`), {
      mode: 0o644,
    });
    await refusedBy(
      config('their-lua', `suite: ${suite}\n`),
      SUITE_USERS,
      new RegExp(
        `${suite}: tests\\[0\\]\\.script: Lua script ${join(lua, 'evil.lua')}: ${lua} belongs to user ` +
          'nobody \\(uid 65534\\)',
      ),
    );
  });

  test('a build profile or server profile others may write is refused by every command that uses it', async () => {
    const demo = readFileSync(join(projectRoot, 'config', 'build-profiles', 'demo.yaml'), 'utf8');
    // A compiler of nobody's, run by cmake as root.
    const evil = nobodyFolder('evil-cc', { cc: { text: EVIL_SH, mode: '0755' } });
    const builds = nobodyFolder('their-build-profiles', {
      'demo.yaml': { text: `${demo}env:\n  CC: ${join(evil, 'cc')}\n`, mode: '0666' },
    });
    await refusedBy(
      config('their-build-profile', `build_profiles_dir: ${builds}\n`),
      BUILD_PROFILE_USERS,
      new RegExp(`build profile ${join(builds, 'demo.yaml')}: ${builds} belongs to user nobody \\(uid 65534\\)`),
    );
    // With bisect: true a check that opens a regression bisects it: check reads the build profile too.
    await refusedBy(
      config('their-build-profile-bisect', `build_profiles_dir: ${builds}\nbisect: true\n`),
      ['check'],
      new RegExp(`build profile ${join(builds, 'demo.yaml')}: ${builds} belongs to user nobody \\(uid 65534\\)`),
    );
    // nobody's server profile in nobody's folder: its settings are what mariadbd runs with, as root starts it.
    const relaxedText = readFileSync(join(projectRoot, 'config', 'server-profiles', 'relaxed.yaml'), 'utf8');
    const theirServers = nobodyFolder('their-server-profiles', { 'relaxed.yaml': { text: relaxedText } });
    await refusedBy(
      config('their-server-profile', `server_profiles_dir: ${theirServers}\n`),
      SERVER_PROFILE_USERS,
      new RegExp(
        `server profile ${join(theirServers, 'relaxed.yaml')}: ${theirServers} belongs to user nobody \\(uid 65534\\)`,
      ),
    );
    // Root's folder, root's file, but mode 0666: anyone may rewrite it between two runs.
    const servers = join(good, 'server-profiles');
    mkdirSync(servers, { mode: 0o755 });
    const relaxed = join(servers, 'relaxed.yaml');
    writeFileSync(relaxed, relaxedText);
    chmodSync(relaxed, 0o666);
    await refusedBy(
      config('writable-server-profile', `server_profiles_dir: ${servers}\n`),
      SERVER_PROFILE_USERS,
      new RegExp(`server profile ${relaxed} is writable by other users \\(mode 0666\\)`),
    );
  });

  test('a password file every user may read, or one of nobody, is refused by every command, never used', async () => {
    // Every secret the option table names (secret: true) can come from a file: smtp_password, store_password.
    for (const option of ['smtp_password_file', 'store_password_file']) {
      const secret = join(good, `${option}.secret`);
      writeFileSync(secret, 'hunter2\n');
      chmodSync(secret, 0o644);
      await refusedBy(
        config(`readable-${option}`, `${option}: ${secret}\n`),
        EVERY,
        new RegExp(
          `${option} ${secret} is readable by every user \\(mode 0644\\): the secret is theirs ` +
            `too; chmod o-r ${secret}, and change the secret$`,
        ),
      );
    }
    // A secret nobody wrote, readable by nobody else: whoever chose it knows it (a store of theirs, a relay of theirs).
    const theirs = nobodyFolder('their-secret', { 'store.secret': { text: 'chosen-by-nobody\n', mode: '0600' } });
    await refusedBy(
      config('their-secret', `store_password_file: ${join(theirs, 'store.secret')}\n`),
      EVERY,
      new RegExp(
        `store_password_file ${join(theirs, 'store.secret')}: ${theirs} belongs to user nobody \\(uid 65534\\)`,
      ),
    );
  });

  test('a cache folder nobody made, or a link of theirs as one, is refused by every command that uses it', async () => {
    // The mirrors and worktrees root compiles, the tarballs it unpacks and runs, the build locks.
    const made = nobodyFolder('qpswatch-cache');
    const file = config('their-cache');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^cache_dir: .*$/m, `cache_dir: ${made}`));
    await refusedBy(
      file,
      CACHE_USERS,
      new RegExp(
        `cache_dir ${made} belongs to user nobody \\(uid 65534\\), not to root or qpswatch's user: another user may ` +
          `have made it beforehand; look at what is in it, and choose another cache_dir$`,
      ),
    );
    const open = nobodyFolder('open-cache');
    const link = join(shared, 'qpswatch-cache-link');
    asNobody('ln', '-s', open, link);
    const linked = config('linked-cache');
    writeFileSync(linked, readFileSync(linked, 'utf8').replace(/^cache_dir: .*$/m, `cache_dir: ${link}`));
    await refusedBy(
      linked,
      CACHE_USERS,
      new RegExp(
        `cache_dir ${link} is a symbolic link \\(to ${open}\\) made by user nobody \\(uid 65534\\): ` +
          `qpswatch never follows one there; remove it \\(sudo rm ${link}\\) or choose another cache_dir$`,
      ),
    );
    assert.deepEqual(readdirSync(made), [], "nothing of root's is made in nobody's folder");
    assert.deepEqual(readdirSync(open), [], "nothing of root's is made in nobody's folder");
  });

  test('links nobody sprayed where export writes redirect nothing: the victim is untouched', async () => {
    const victim = join(good, 'victim');
    writeFileSync(victim, 'precious\n', { mode: 0o644 });
    const out = join(shared, 'results.csv');
    asNobody('ln', '-s', victim, out);
    // The names the old temporary file could have had, for the pids the next processes will get.
    const next = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
    asNobody('sh', '-c', `for p in $(seq ${next} ${next + 400}); do ln -s ${victim} ${out}.$p.tmp; done`);
    const result = await runCli(['--config', config('export'), 'export', '--output', out], { cwd: good });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    const written = lstatSync(out);
    assert.ok(written.isFile() && written.uid === 0, "a new file of root's took the link's place");
    assert.match(readFileSync(out, 'utf8'), /^flavor,version,test,threads,qps/);
    assert.deepEqual(
      readdirSync(shared).filter((f) => f.startsWith('.qpswatch-')),
      [],
    );
  });

  /** argv that writes a built release (`tag`, build key `key`) whose install folder is `installDir` into a store. */
  function plantRow(path: string, installDir: string, tag = TAG2, key?: string): string[] {
    const script = join(projectRoot, 'dist', 'test', 'fixtures', 'trust', 'plant-build-row.js');
    return [
      process.execPath,
      script,
      path,
      'demo',
      tag,
      commitOf(tag),
      installDir,
      ...(key !== undefined ? [key] : []),
    ];
  }

  function commitOf(tag: string): string {
    return spawnSync('git', ['-C', repo, 'rev-parse', `${tag}^{commit}`], { encoding: 'utf8' }).stdout.trim();
  }

  /** The build key qpswatch gives `tag` with the test's config (test/fixtures/trust/build-key.ts). */
  function buildKeyOf(tag: string): string {
    const script = join(projectRoot, 'dist', 'test', 'fixtures', 'trust', 'build-key.js');
    const r = spawnSync(process.execPath, [script, config('key'), commitOf(tag), tag.replace(/^mariadb-/, '')], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^[0-9a-f]{16}$/);
    return r.stdout;
  }

  /** The daemon started as systemd starts it: its first cycle runs at once; stopped with SIGTERM once it is done. */
  function daemonCycle(file: string): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [join(projectRoot, 'bin', 'qpswatch.js'), '--config', file, '--log-level', 'info', 'daemon'],
        {
          cwd: good,
          env: { PATH: process.env['PATH']!, HOME: '/root', QPSWATCH_LOG_FORMAT: 'json' },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (/"msg":"cycle done"/.test(stderr)) child.kill('SIGTERM');
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
  }
});

/** A git repository with one commit per tag, each tag annotated: the smallest upstream discover can read. */
function makeRepo(dir: string, tags: readonly string[]): void {
  const env = {
    PATH: process.env['PATH']!,
    HOME: dir,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  const git = (...args: string[]): void => {
    const r = spawnSync('git', ['-C', dir, ...args], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  mkdirSync(dir, { recursive: true });
  git('init', '--quiet');
  for (const tag of tags) {
    writeFileSync(join(dir, 'VERSION'), `${tag}\n`);
    git('add', 'VERSION');
    git('commit', '--quiet', '--message', tag);
    git('tag', '--annotate', '--message', tag, tag);
  }
}

/** The messages of the warning lines of a JSON log. */
function warnings(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number | string; msg: string })
    .filter((l) => l.level === 40 || l.level === 'warn')
    .map((l) => l.msg);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `fn` over the items, three at a time (the host is shared), results in the items' order. */
async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += 3) out.push(...(await Promise.all(items.slice(i, i + 3).map(fn))));
  return out;
}
