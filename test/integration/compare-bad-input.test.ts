import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { messageLines, runCli, type CliResult } from '../helpers/cli.js';
import { processesUnder } from '../helpers/processes.js';
import { letServerPass } from '../helpers/server-user.js';
import { hostInput, sampleInput, sessionInput } from '../unit/store/store-inputs.js';
import { joined } from '../helpers/pattern.js';

/**
 * Bad input ends in one clear line naming the thing and the fix, a non-zero exit, and nothing already stored lost:
 * each case runs the real CLI against a state folder that already holds a finished session.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-bad-')));
const stateDir = join(dir, 'state');
const profilesDir = join(dir, 'profiles');
const suiteFile = join(dir, 'tiny.yaml');
let seededSession = 0;

writeFileSync(
  suiteFile,
  `name: tiny
description: one short test
load: { tables: 1, table_size: 1000 }
warmup: { script: oltp_point_select, seconds: 1, threads: 1 }
defaults: { seconds: 1, threads: [1] }
tests:
  - { name: point-query, script: oltp_point_select }
`,
);
// The case: four 8-second tests under an 8-minute budget pay for 6 blocks, short of the 9 a verdict needs.
const fourFile = join(dir, 'four.yaml');
writeFileSync(
  fourFile,
  `name: four
description: four 8-second tests
budget_minutes: 8
load: { tables: 1, table_size: 1000 }
warmup: { script: oltp_point_select, seconds: 1, threads: 1 }
defaults: { seconds: 8, threads: [1] }
tests:
  - { name: point-query, script: oltp_point_select }
  - { name: read-only, script: oltp_read_only }
  - { name: update-index, script: oltp_update_index }
  - { name: update-nonindex, script: oltp_update_non_index }
`,
);
mkdirSync(profilesDir);
writeFileSync(
  join(profilesDir, 'plain.yaml'),
  'description: defaults only\nsettings:\n  innodb_buffer_pool_size: 64M\n',
);
writeFileSync(
  join(profilesDir, 'huge.yaml'),
  'description: a buffer pool no host here has\nsettings:\n  innodb_buffer_pool_size: 4000G\n',
);
writeFileSync(join(profilesDir, 'typo.yaml'), 'description: an option no server knows\nsettings:\n  innodb_foo: 1\n');

function config(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `state_dir: ${stateDir}\nserver_profiles_dir: ${profilesDir}\nlog_level: warn\n` +
      `host_lock: ${join(dir, 'host.lock')}\n${text}`,
  );
  return file;
}

const good = config(
  'good.yaml',
  // New server instances before every sweep: the tiny suite's 8 pairs are 8 blocks.
  `instance_seconds: 0
targets:
  a: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: plain }
  typo: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: typo }
  gone: { kind: installed, flavor: mariadb, basedir: /nonexistent/mariadb, server_profile: plain }
  huge: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: huge }
`,
);

function compare(
  configFile: string,
  baseline: string,
  candidate: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  return runCli(
    [
      '--config',
      configFile,
      'compare',
      '--baseline',
      baseline,
      '--candidate',
      candidate,
      '--suite',
      suiteFile,
      '--rounds',
      '5',
    ],
    { env },
  );
}

/** Exactly one line for a person, matching `expected`, and the given exit code. */
function assertOneLine(result: CliResult, code: number, expected: RegExp): void {
  const lines = messageLines(result.stderr);
  assert.equal(result.code, code, result.stderr);
  assert.equal(lines.length, 1, `expected one line, got:\n${lines.join('\n')}`);
  assert.match(lines[0]!, expected);
  assert.equal(result.stdout, '');
}

before(async () => {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
  const hostId = await store.upsertHost(hostInput());
  seededSession = await store.createSession(sessionInput(hostId, { pid: process.pid }));
  await store.addSample(seededSession, sampleInput());
  await store.finishSession(seededSession);
  await store.close();
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe('bad input', () => {
  test(
    'two servers that do not fit in memory side by side: refused before ' + 'anything is loaded, with the way out',
    async () => {
      const result = await runCli([
        '--config',
        good,
        'compare',
        '--baseline',
        'huge',
        '--candidate',
        'huge',
        '--suite',
        suiteFile,
        '--pairs',
        '8',
      ]);
      assertOneLine(
        result,
        2,
        joined(
          /the two servers of a paired session need about 8000\.\d GiB /,
          /together .* this host has [\d.]+ GiB available: use a server /,
          /profile with a smaller innodb_buffer_pool_size, or the /,
          /whole-run design \(--design runs\)/,
        ),
      );
    },
  );

  describe('settings that can never reach a verdict: refused before any server starts', () => {
    // At info, so a load, a server start or a warm-up would show in the log lines.
    const info = join(dir, 'info.yaml');
    writeFileSync(
      info,
      `state_dir: ${stateDir}\nserver_profiles_dir: ` +
        `${profilesDir}\nlog_level: info\ntargets:\n  a: { kind: installed, ` +
        `flavor: mariadb, basedir: /usr, server_profile: plain }\n`,
    );

    async function sessionCount(): Promise<number> {
      const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
      try {
        return (await store.listSessions({ limit: 1000 })).length;
      } finally {
        await store.close();
      }
    }

    /** The one line, and nothing started: no session stored, no work folder, no server, no load or warm-up logged. */
    async function assertRefusedBeforeStart(args: string[], expected: RegExp): Promise<void> {
      const before = await sessionCount();
      const result = await runCli(['--config', info, 'compare', '--baseline', 'a', '--candidate', 'a', ...args]);
      assertOneLine(result, 2, expected);
      assert.equal(await sessionCount(), before, 'no session stored');
      const work = join(stateDir, 'work');
      assert.deepEqual(
        existsSync(work) ? readdirSync(work).filter((n) => n.startsWith('session-')) : [],
        [],
        'no session folder',
      );
      const logged = result.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
      assert.ok(!logged.some((m) => /^loading|server up|warm-up|^session \d+ started/.test(m)), logged.join('\n'));
      assert.deepEqual(processesUnder(dir), []);
    }

    test('a budget that cannot reach a verdict names the blocks it pays for, those needed and the budget', async () => {
      await assertRefusedBeforeStart(
        ['--suite', fourFile],
        joined(
          /^qpswatch: budget 8 min pays for 6 blocks of suite four \(4 /,
          /tests, 67 s each sweep, new server instances every sweep\); a verdict needs 9 blocks /,
          /\(4 test\(s\) sharing alpha 0\.01\): raise --budget \(or budget_minutes\) to 11 or more, or /,
          /shorten the tests \(--seconds\)$/,
        ),
      );
    });

    test('whole runs of 2 rounds name their smallest p-value and the rounds that reach alpha', async () => {
      await assertRefusedBeforeStart(
        ['--suite', suiteFile, '--rounds', '2'],
        joined(
          /^qpswatch: --rounds 2: the smallest p-value of 2 rounds is /,
          /1\/6 \(0\.167\), above alpha 0\.01; use --rounds 5 or more, /,
          /or the paired design$/,
        ),
      );
    });

    test('config check says the same of the config, without starting a server', async () => {
      const runs = config('runs.yaml', 'design: runs\nrounds: 2\n');
      const result = await runCli(['config', 'check', runs]);
      assert.equal(result.code, 2, result.stderr);
      assert.deepEqual(messageLines(result.stderr), [
        `qpswatch: ${runs}: rounds 2: the smallest p-value of 2 rounds is 1/6 ` +
          `(0.167), above alpha 0.01; use rounds 5 or more, or design: paired`,
      ]);
      const paired = config('short-budget.yaml', `suite: ${fourFile}\n`);
      const short = await runCli(['config', 'check', paired]);
      assert.equal(short.code, 2, short.stderr);
      assert.deepEqual(messageLines(short.stderr), [
        `qpswatch: ${paired}: suite four: budget 8 min pays for 6 blocks of ` +
          `suite four (4 tests, 67 s each sweep, new server instances every sweep); a verdict needs 9 blocks ` +
          `(4 test(s) sharing alpha 0.01): raise budget_minutes to 11 or more, or shorten the tests`,
      ]);
      assert.deepEqual(processesUnder(dir), []);
    });

    describe("a suite with sysbench's stock oltp_insert: refused in one line with the fix, everywhere", () => {
      const stockFile = join(dir, 'stock-insert.yaml');
      writeFileSync(
        stockFile,
        `name: stock-insert\ndescription: a read test and sysbench's own insert\n` +
          `load: { tables: 1, table_size: 1000 }\nwarmup: { script: oltp_point_select, seconds: 1, threads: 1 }\n` +
          `defaults: { seconds: 1, threads: [1] }\ntests:\n  - { name: point-query, script: oltp_point_select }\n` +
          `  - { name: insert, script: oltp_insert }\n`,
      );
      const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const refusal =
        "test insert runs sysbench's stock oltp_insert, which grows the loaded tables: in a paired session each " +
        'server runs every test on one datadir, so the faster server would change the data more and the two would ' +
        "read different tables; use qpswatch's own script insert (appends to a table of its own), or run the " +
        'suite in the whole-run design (design: runs, or --rounds N)';

      test('compare: exit 2 before any server starts', () =>
        assertRefusedBeforeStart(['--suite', stockFile], new RegExp(`^qpswatch: ${escaped(refusal)}$`)));

      test('a renamed copy elsewhere is known by its content', async () => {
        const copyDir = join(dir, 'own-scripts');
        mkdirSync(copyDir, { recursive: true });
        const copy = join(copyDir, 'grow.lua');
        writeFileSync(copy, readFileSync('/usr/share/sysbench/oltp_insert.lua'));
        const copied = join(copyDir, 'copied.yaml');
        writeFileSync(copied, readFileSync(stockFile, 'utf8').replace('script: oltp_insert', 'script: ./grow.lua'));
        await assertRefusedBeforeStart(
          ['--suite', copied],
          new RegExp(
            `^qpswatch: test insert runs ${escaped(copy)}, a copy of sysbench's stock oltp_insert, which grows`,
          ),
        );
      });

      test('config check and the daemon (here once) refuse it too', async () => {
        const file = config('stock-insert-config.yaml', `suite: ${stockFile}\n`);
        const checked = await runCli(['config', 'check', file]);
        assert.equal(checked.code, 2, checked.stderr);
        assert.deepEqual(messageLines(checked.stderr), [`qpswatch: ${file}: suite stock-insert: ${refusal}`]);
        const upstream =
          `upstreams:\n  - { name: demo, remote: ${join(dir, 'no-such-repository')}, flavor: mariadb, ` +
          `series: "10.11", build_profile: demo, server_profile: relaxed }\n`;
        const daemon = config('stock-insert-daemon.yaml', `suite: ${stockFile}\n${upstream}`);
        const once = await runCli(['--config', daemon, 'once']);
        assert.equal(once.code, 2, once.stderr);
        assert.deepEqual(messageLines(once.stderr), [`qpswatch: ${daemon}: suite stock-insert: ${refusal}`]);
        assert.deepEqual(processesUnder(dir), []);
      });
    });

    test('the daemon (here once) refuses them at its start, before a cycle looks at its upstream', async () => {
      const upstream =
        `upstreams:\n  - { name: demo, remote: ` +
        `${join(dir, 'no-such-repository')}, flavor: mariadb, series: "10.11", ` +
        `build_profile: demo, server_profile: relaxed, budget_minutes: 1 }\n`;
      const file = config('daemon-short.yaml', `suite: ${fourFile}\nbudget_minutes: 12\n${upstream}`);
      const result = await runCli(['--config', file, 'once']);
      assert.equal(result.code, 2, result.stderr);
      assert.deepEqual(messageLines(result.stderr), [
        `qpswatch: ${file}: upstreams[0].budget_minutes: budget 1 min pays for ` +
          `1 block of suite four (4 tests, 67 s each sweep, new server instances every sweep); a verdict needs ` +
          `9 blocks (4 test(s) sharing alpha 0.01): raise budget_minutes to 11 or more, or shorten the tests`,
      ]);
    });
  });

  test('a config value of the wrong type', async () => {
    const file = config('wrong-type.yaml', 'rounds: many\n');
    assertOneLine(
      await compare(file, 'a', 'a'),
      2,
      /wrong-type\.yaml: rounds = "many": expected an integer from 1 to 100/,
    );
  });

  test('an unknown config key', async () => {
    const file = config('unknown-key.yaml', 'server_prot: 3307\n');
    assertOneLine(await compare(file, 'a', 'a'), 2, /unknown option 'server_prot': did you mean 'server_port'\?/);
  });

  test('a target that is not defined', async () => {
    assertOneLine(
      await compare(good, 'a', 'b'),
      2,
      /target 'b' is not defined and is not a built release: use one of a, typo, gone, huge/,
    );
  });

  test('a missing server binary', async () => {
    assertOneLine(await compare(good, 'a', 'gone'), 2, /\/nonexistent\/mariadb/);
  });

  test('sysbench missing', async () => {
    assertOneLine(
      await compare(good, 'a', 'a', { PATH: '/usr/sbin:/sbin' }),
      2,
      /sysbench.*not found.*apt-get install sysbench/,
    );
  });

  test('a server option the server rejects', async () => {
    assertOneLine(
      await compare(good, 'a', 'typo'),
      2,
      joined(
        /the server refuses .*my\.cnf: \[ERROR\] .*unknown variable /,
        /'innodb_foo=1': remove the option from the server profile/,
      ),
    );
  });

  test('config check names the rejected option without starting a server', async () => {
    const result = await runCli(['config', 'check', good]);
    assert.equal(result.code, 2);
    const lines = messageLines(result.stderr);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.ok(
      lines.some((l) => /targets\.typo: .*innodb_foo/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /targets\.gone: .*\/nonexistent\/mariadb/.test(l)),
      lines.join('\n'),
    );
    assert.ok(!lines.some((l) => /targets\.a:/.test(l)), lines.join('\n'));
  });

  describe('resources in use', () => {
    let listener: Server;
    let port = 0;
    before(async () => {
      listener = createServer();
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as { port: number }).port;
    });
    after(() => new Promise<void>((resolve) => listener.close(() => resolve())));

    test('a port in use', async () => {
      const file = config(
        'port.yaml',
        `server_port: ${port}\ntargets:\n  a: { kind: installed, flavor: ` +
          `mariadb, basedir: /usr, server_profile: plain }\n`,
      );
      assertOneLine(await compare(file, 'a', 'a'), 2, new RegExp(`port ${port}.*in use`));
    });

    test('a socket in use', async () => {
      const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
      const [last] = await store.listSessions({ limit: 1 });
      await store.close();
      const socket = join(stateDir, 'run', `${last!.id + 1}-b.sock`);
      mkdirSync(join(stateDir, 'run'), { recursive: true });
      const squatter = createServer();
      await new Promise<void>((resolve) => squatter.listen(socket, resolve));
      try {
        assertOneLine(
          await compare(good, 'a', 'a'),
          2,
          /a server already answers on socket .*-b\.sock: stop that server/,
        );
      } finally {
        await new Promise<void>((resolve) => squatter.close(() => resolve()));
      }
    });
  });

  test('nothing already stored is lost, and no failed session is left running', async () => {
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      assert.equal((await store.getSession(seededSession))?.state, 'done');
      assert.equal((await store.completedSamples(seededSession)).length, 1);
      const sessions = await store.listSessions({ limit: 100 });
      assert.ok(
        sessions.every((s) => s.state !== 'running'),
        JSON.stringify(sessions.map((s) => s.state)),
      );
    } finally {
      await store.close();
    }
  });
});
