import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ComparisonView } from '../../src/model/index.js';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { messageLines, runCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/paths.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * `qpswatch sessions` and `qpswatch show N` after a real paired `compare` (the installed mariadbd and sysbench, a tiny
 * suite): the list, the report printed again from the store alone, names that are data, and a reader who may not
 * read the store.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-sessions-')));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const laterConfig = join(dir, 'later.yaml');
const suiteFile = join(dir, 'tiny.yaml');
const pointsSuite = join(dir, 'points.yaml');

const profilesDir = join(dir, 'server-profiles');
const config = (extra: string): string => `state_dir: ${stateDir}
server_profiles_dir: ${profilesDir}
log_level: warn
instance_seconds: 0
instance_warmup_seconds: 0
host_lock: ${join(dir, 'host.lock')}
cache_dir: ${join(dir, 'cache')}
min_free_bytes: 1000000
${extra}
targets:
  relaxed: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }
  durable: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: durable }
  ahi: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed-ahi }
  noicp: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed-noicp }
`;
// The tests' shipped profiles, and two of relaxed's own.
cpSync(testServerProfilesDir(), profilesDir, { recursive: true });
// relaxed with one setting more: the adaptive hash index (off by default since MariaDB 10.5), or index condition
// pushdown off, which changes the plan of a lookup on the secondary index k.
const relaxedWith = (setting: string): string =>
  readFileSync(join(profilesDir, 'relaxed.yaml'), 'utf8').replace(/^settings:\n/m, `settings:\n  ${setting}\n`);
writeFileSync(join(profilesDir, 'relaxed-ahi.yaml'), relaxedWith('innodb_adaptive_hash_index: 1'));
writeFileSync(join(profilesDir, 'relaxed-noicp.yaml'), relaxedWith('optimizer_switch: index_condition_pushdown=off'));
writeFileSync(configFile, config('test_thresholds: { point-query: 0.8 }'));
// The same store after someone changed the thresholds: a session is still shown as it was judged.
writeFileSync(laterConfig, config('threshold: 0.6\nalpha: 0.2'));
writeFileSync(
  suiteFile,
  `name: tiny
description: one write and one read test, pairs of 1-second runs
load: { tables: 1, table_size: 2000 }
warmup: { script: oltp_read_only, seconds: 1, threads: 1 }
defaults: { seconds: 1, threads: [1] }
tests:
  - name: update-index
    script: oltp_update_index
  - name: point-query
    script: oltp_point_select
`,
);

// One read whose plan index condition pushdown changes: sysbench's select_random_points looks rows up by k.
writeFileSync(
  pointsSuite,
  `name: points
description: rows looked up by the secondary index k, pairs of 1-second runs
load: { tables: 1, table_size: 2000 }
warmup: { script: oltp_read_only, seconds: 1, threads: 1 }
defaults: { seconds: 1, threads: [1] }
tests:
  - { name: point-query, script: oltp_point_select }
  - { name: random-points, script: select_random_points }
`,
);

after(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[], file = configFile) => runCli(['--config', file, ...args]);
const newestSession = async (): Promise<number> =>
  (JSON.parse((await cli(['sessions', '--json', '--limit', '1'])).stdout) as Array<{ id: number }>)[0]!.id;
const SCRIPT = '<script>alert(1)</script>';

/**
 * A second, done session with hostile names: the real session's samples under targets and a suite named like markup.
 */
async function hostileCopy(sessionId: number): Promise<number> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
  try {
    const session = (await store.getSession(sessionId))!;
    const rename = (side: typeof session.baseline, name: string) => ({ ...side, name, version: `${side.version}"&'` });
    const id = await store.createSession({
      kind: 'compare',
      hostId: session.hostId,
      suite: `tiny${SCRIPT}`,
      rounds: session.rounds,
      pid: process.pid,
      settings: session.settings,
      baseline: rename(session.baseline, `relaxed${SCRIPT}`),
      candidate: rename(session.candidate, `durable<img src=x onerror=alert(2)>`),
    });
    for (const { id: _id, sessionId: _session, createdAt: _at, ...sample } of await store.completedSamples(sessionId))
      await store.addSample(id, sample);
    await store.finishSession(id);
    return id;
  } finally {
    await store.close();
  }
}

describe('qpswatch sessions and show', () => {
  let compared = '';
  let view: ComparisonView;
  let hostile: number;

  before(async () => {
    const result = await cli([
      'compare',
      '--baseline',
      'relaxed',
      '--candidate',
      'durable',
      '--suite',
      suiteFile,
      '--pairs',
      '8',
    ]);
    assert.equal(result.code, 0, result.stderr);
    compared = result.stdout;
    const json = await cli(['show', '1', '--format', 'json']);
    assert.equal(json.code, 0, json.stderr);
    view = JSON.parse(json.stdout) as ComparisonView;
    hostile = await hostileCopy(view.sessionId);
  });

  test(
    'show N prints the report exactly as compare printed it, from the ' + 'store, even after the thresholds changed',
    async () => {
      assert.equal(view.sessionId, 1);
      assert.ok(
        view.tests.every((t) => t.verdict !== undefined),
        'every test judged',
      );
      const workBefore = readdirSync(join(stateDir, 'work'));
      const shown = await cli(['show', '1']);
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal(shown.stdout, compared);
      const later = await cli(['show', '1'], laterConfig);
      assert.equal(later.code, 0, later.stderr);
      assert.equal(later.stdout, compared);
      assert.deepEqual(readdirSync(join(stateDir, 'work')), workBefore, 'no session folder: no server started');
    },
  );

  test('sessions lists both, newest first, with the verdict counts compare found', async () => {
    const text = await cli(['sessions']);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.split('\n');
    assert.match(
      lines[0]!,
      /^id {2}state {2}started +took {2}design {2}suite +baseline \(B\) +candidate \(C\) +reg\/imp\/slow\/unst\/ok$/,
    );
    const kinds = (k: string) => view.tests.filter((t) => t.verdict?.kind === k).length;
    const counts = ['regression', 'improvement', 'slower', 'unstable', 'ok'].map(kinds).join('/');
    assert.match(
      lines[2]!,
      new RegExp(
        `^ 1 {2}done {3}\\d+ (s|min) ago +\\d+ (s|min) {2}paired {2}tiny ` +
          `+relaxed \\(mariadb [\\d.]+\\) +durable \\(mariadb [\\d.]+\\) ` +
          `+${counts}$`,
      ),
    );
    assert.match(
      lines[1]!,
      /^ 2 {2}done .*tiny<script>alert\(1\)<\/script>/,
      'plain text on a terminal, shown as it is',
    );

    const json = await cli(['sessions', '--json', '--limit', '1']);
    assert.equal(json.code, 0, json.stderr);
    const [newest, ...rest] = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    assert.equal(rest.length, 0, '--limit 1');
    assert.equal(newest!['id'], hostile);
    assert.equal(newest!['judged'], 'samples');
    assert.deepEqual(newest!['verdicts'], {
      ok: kinds('ok'),
      regression: kinds('regression'),
      improvement: kinds('improvement'),
      slower: kinds('slower'),
      unstable: kinds('unstable'),
    });
    assert.match(String(newest!['startedAt']), /^\d{4}-\d\d-\d\dT/);

    const none = await cli(['sessions', '--state', 'failed']);
    assert.deepEqual([none.code, none.stdout], [0, 'no failed sessions in the store\n']);
    const bad = await cli(['sessions', '--state', 'finished']);
    assert.equal(bad.code, 2);
    assert.deepEqual(messageLines(bad.stderr), [
      'qpswatch: --state "finished" is not a session state: use one of running, done, interrupted, failed',
    ]);
  });

  test('show N --format html escapes every name: a target or suite named like markup is data', async () => {
    const html = await cli(['show', String(hostile), '--format', 'html']);
    assert.equal(html.code, 0, html.stderr);
    assert.ok(!html.stdout.includes('<script>') && !html.stdout.includes('<img'), 'no markup from the data');
    assert.ok(html.stdout.includes('relaxed&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(html.stdout.includes('durable&lt;img src=x onerror=alert(2)&gt;'));
    assert.match(html.stdout, /^<!DOCTYPE html>/i);
  });

  test('an unknown session: one line naming it and the command that lists them, exit 2', async () => {
    const result = await cli(['show', '999']);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.deepEqual(messageLines(result.stderr), [
      'qpswatch: no session 999 in the store: `qpswatch sessions` lists the ones there are',
    ]);
    const word = await cli(['show', 'latest']);
    assert.equal(word.code, 2);
    assert.deepEqual(messageLines(word.stderr), [
      'qpswatch: session id "latest" is not a session number: `qpswatch sessions` lists them',
    ]);
  });

  const asNobody = process.getuid?.() === 0 && spawnSync('runuser', ['--help']).error === undefined;
  test(
    'a user who may not read the store gets one clear line, no stack trace, and nothing is created',
    { skip: asNobody ? undefined : 'needs root and runuser to run as nobody' },
    () => {
      // The store is readable to its group only (0640, folder 0750), as every qpswatch command leaves it; nobody is not
      // in
      // it, but may pass the folder above (0711) to read the config.
      const before = readdirSync(stateDir).sort();
      for (const args of [['sessions'], ['show', '1']]) {
        const env = ['PATH=/usr/bin:/bin', 'QPSWATCH_LOG_FORMAT=json'];
        const result = spawnSync(
          'runuser',
          [
            '-u',
            'nobody',
            '--',
            'env',
            '-i',
            ...env,
            process.execPath,
            join(projectRoot, 'bin', 'qpswatch.js'),
            '--config',
            configFile,
            ...args,
          ],
          { cwd: '/', encoding: 'utf8', timeout: 60_000 },
        );
        assert.equal(result.status, 2, result.stderr);
        assert.equal(result.stdout, '');
        const lines = messageLines(result.stderr);
        assert.equal(lines.length, 1, result.stderr);
        assert.match(
          lines[0]!,
          new RegExp(
            `^qpswatch: cannot read the store ` +
              `${defaultSqlitePath(stateDir).replace(/[.]/g, '\\.')} as user nobody: ` +
              `permission denied; `,
          ),
        );
        assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      }
      assert.deepEqual(readdirSync(stateDir).sort(), before);
    },
  );

  test('a second compare copies both loaded datadirs from the cache; root gets a new password', async () => {
    const result = await runCli(
      ['--config', configFile, 'compare', '--baseline', 'relaxed', '--candidate', 'durable', '--suite', suiteFile],
      { env: { QPSWATCH_LOG_LEVEL: 'info' } },
    );
    // sysbench logs in with this session's password (sysbench.cnf): a server that kept the first session's would
    // refuse every run.
    assert.equal(result.code, 0, result.stderr);
    const logged = result.stderr.split('\n').filter((l) => l.includes('copied from the cache'));
    assert.deepEqual(
      logged.map((l) => (JSON.parse(l) as { target: string }).target),
      ['relaxed', 'durable'],
      'both sides copied, neither loaded',
    );
    assert.doesNotMatch(result.stderr, /"msg":"loading \d+ rows/);
    const entries = readdirSync(join(dir, 'cache', 'datadirs'));
    assert.equal(entries.length, 2, `one entry per target: ${entries.join(' ')}`);
    if (asNobody) {
      const listed = spawnSync('runuser', ['-u', 'nobody', '--', 'ls', join(dir, 'cache', 'datadirs')], {
        encoding: 'utf8',
      });
      assert.notEqual(listed.status, 0, 'nobody may not enter the cache of datadirs');
      assert.match(listed.stderr, /Permission denied/);
    }
  });

  test('profiles that differ in one setting: compare, show and its page list that variable, only it', async () => {
    const result = await cli([
      'compare',
      '--baseline',
      'relaxed',
      '--candidate',
      'ahi',
      '--suite',
      suiteFile,
      '--pairs',
      '8',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const sessionId = await newestSession();
    const shown = await cli(['show', String(sessionId), '--format', 'json']);
    const variables = (JSON.parse(shown.stdout) as ComparisonView).variables;
    assert.deepEqual(variables?.differences, [
      { name: 'innodb_adaptive_hash_index', baseline: 'OFF', candidate: 'ON' },
    ]);
    assert.ok(variables.compared > 300, `every variable compared: ${variables.compared}`);
    for (const text of [result.stdout, (await cli(['show', String(sessionId)])).stdout]) {
      assert.match(text, /^1 of \d+ differ \(SHOW GLOBAL VARIABLES after start-up/m);
      assert.match(text, /^innodb_adaptive_hash_index +OFF +ON$/m);
    }
    const html = await cli(['show', String(sessionId), '--format', 'html']);
    assert.match(html.stdout, /<td[^>]*>innodb_adaptive_hash_index<\/td><td[^>]*>OFF<\/td><td[^>]*>ON<\/td>/);
    // The first session's profiles differ in the two settings durable fsyncs with (and what the server derives).
    const names = view.variables?.differences.map((d) => d.name).filter((n) => n !== 'innodb_log_file_buffering');
    assert.deepEqual(names, ['innodb_flush_log_at_trx_commit', 'sync_binlog']);
  });

  test('one side without index condition pushdown: its plan of a lookup on k is shown beside the other', async () => {
    const result = await cli([
      'compare',
      '--baseline',
      'relaxed',
      '--candidate',
      'noicp',
      '--suite',
      pointsSuite,
      '--pairs',
      '8',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const lookup = /^random-points +SELECT id, k, c, pad FROM sbtest1 WHERE k IN \([?, ]+\)? +(\S.*?) {2,}(\S.*)$/m;
    for (const text of [result.stdout, (await cli(['show', String(await newestSession())])).stdout]) {
      assert.match(text, /^Plans that differ$/m);
      assert.match(text, /^1 of 2 statements differ \(EXPLAIN FORMAT=JSON after start-up/m);
      const [, b, c] = lookup.exec(text) ?? [];
      assert.deepEqual([b, c], ['sbtest1 range k_1 + index condition', 'sbtest1 range k_1 + where']);
      assert.match(text, /^optimizer_switch +index_condition_pushdown=on +index_condition_pushdown=off$/m);
    }
    // The session before it ran the same statements on the same plans.
    const before = await cli(['show', String((await newestSession()) - 1)]);
    assert.match(before.stdout, /^None: the \d+ statements explained have the same plan on both sides\.$/m);
  });
});
