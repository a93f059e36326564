import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeDemoUpstream, type DemoUpstream } from '../../scripts/demo-upstream/make.js';
import { messageLines, runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { freePort, makeMailFolder, readReceived, removeFolder, startSmtpSink, type SmtpSink } from '../helpers/smtp.js';
import { joined } from '../helpers/pattern.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * The whole release check on the demo upstream, through the CLI a person uses: the first release becomes last
 * good, the slow tag is flagged on its write test with a hint while the mail server is down, the alert waits in
 * the outbox across processes and goes out exactly once when the server is back, and the next release's recovery
 * is emailed at once. Real mariadbd, sysbench, git, cmake and an SMTP server process on 127.0.0.1.
 */
let root = '';
let mailFolder = '';
let demo: DemoUpstream;
let smtpPort = 0;
let sink: SmtpSink | undefined;
// Paired design: the first look at 8 pairs decides these tests (the slow tag's fsync costs far more than 40%).
const PAIRS = '12';

// QPSWATCH_HOST_LOCK, when set, is passed on: a run of this file alone need not wait on other benchmarks of the host.
const hostLock = process.env['QPSWATCH_HOST_LOCK'];
const cli = (...args: string[]) =>
  runCli(['--config', join(root, 'qpswatch.yaml'), ...args], {
    env: { USER: 'tester', ...(hostLock !== undefined ? { QPSWATCH_HOST_LOCK: hostLock } : {}) },
  });
const check = (tag: string) => cli('check', tag, '--suite', join(root, 'tiny.yaml'), '--pairs', PAIRS);

before(async () => {
  root = letServerPass(await mkdtemp('/tmp/qpsw-chk-'));
  mailFolder = await makeMailFolder();
  demo = await makeDemoUpstream(join(root, 'upstream'));
  smtpPort = await freePort();
  await writeFile(
    join(root, 'qpswatch.yaml'),
    [
      `state_dir: ${join(root, 'state')}\nserver_profiles_dir: ${testServerProfilesDir()}`,
      // New server instances before every sweep: the few pairs of a tiny suite make enough blocks.
      'instance_seconds: 0',
      // Tables of a few thousand rows need no warm-up after a restart: each block starts at once.
      'instance_warmup_seconds: 0',
      `cache_dir: ${join(root, 'cache')}`,
      'log_level: warn',
      'min_free_bytes: 1000000',
      'email_to: [dba@example.org, perf@example.org]',
      'email_from: qpswatch@example.org',
      'smtp_host: 127.0.0.1',
      `smtp_port: ${smtpPort}`,
      'smtp_timeout_seconds: 5',
      'grafana_url: http://grafana.example:3000/',
      // A regression's worst test is profiled on both servers (perf here, as root) and its table emailed.
      'profiling: auto',
      'profile_seconds: 3',
      // A wide margin for these 1-second tests, so run-to-run noise on a shared host reads as ok, not unstable;
      // the slow tag's fsync at commit costs far more than 40% on the write test.
      'test_thresholds: { update-index: 0.6, point-query: 0.6 }',
      'upstreams:',
      `  - { name: demo, remote: ${join(root, 'upstream')}, flavor: mariadb, ` +
        `series: "10.11", build_profile: demo, server_profile: relaxed, base: ` +
        `"10.11.1" }`,
      '',
    ].join('\n'),
  );
  // Pairs of 1-second runs, as in bisect.test: the three sessions decide at the first look either way, and 2-second
  // runs only made each of them half a minute longer.
  await writeFile(
    join(root, 'tiny.yaml'),
    'name: tiny\ndescription: one write and one read test\nload: { tables: 1, table_size: 2000 }\n' +
      'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 1, threads: [1] }\n' +
      ('tests:\n  - { name: update-index, script: oltp_update_index }\n  - { ' +
        'name: point-query, script: oltp_point_select }\n'),
  );
});

/**
 * The regression email carries the profile of update-index.t1 on both servers: the table of grown frames, the flame
 * graph's file; the session's HTML report draws the flame graph.
 */
async function profileInEmail(text: string, html: string): Promise<void> {
  assert.match(text, /Where the time went: differential profile/);
  assert.match(
    text,
    /Profile \d+ of update-index\.t1, the worst regressed test, rerun on each server: B mariadb-10\.11\.1/,
  );
  assert.match(text, /function\s+B total\s+C total\s+grew \(pts\)/, 'the table of grown frames');
  assert.match(html, /<th[^>]*>grew \(pts\)<\/th>/);
  const svg = /flame graph: (\S+\/profiles\/\d+\/flame-graph\.svg)/.exec(text)?.[1];
  assert.ok(svg !== undefined, 'the flame graph path');
  assert.match(await readFile(svg, 'utf8'), /^<svg /);
  const sessionId = /qpswatch show (\d+) --format html/.exec(text)?.[1];
  const shown = await cli('show', sessionId ?? '0', '--format', 'html');
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(
    shown.stdout,
    /<h2[^>]*>Profile \d+: update-index\.t1, mariadb-10\.11\.3 \(C\) against mariadb-10\.11\.1/,
  );
  assert.match(shown.stdout, /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<rect [\s\S]*<\/svg>/);
}

/**
 * The slow tag's server runs with fsync at commit (the demo's release.cmake): the email names the two variables that
 * release sets, with both values, and at most what the server derives from them (MariaDB 10.11 turns off
 * innodb_log_file_buffering when every commit is flushed); the sides' own paths and ports are not among them.
 */
function variablesInEmail(text: string, html: string): void {
  assert.match(text, /^Server variables that differ$/m);
  const rows = /^variable +B +C\n((?:.+\n)+)/m.exec(text)?.[1]?.trim().split('\n') ?? [];
  const names = rows.map((r) => r.split(/ +/)[0]);
  assert.deepEqual(
    names.filter((n) => n !== 'innodb_log_file_buffering'),
    ['innodb_flush_log_at_trx_commit', 'sync_binlog'],
  );
  assert.match(text, new RegExp(`^${names.length} of \\d+ differ \\(SHOW GLOBAL VARIABLES after start-up`, 'm'));
  assert.match(text, /^innodb_flush_log_at_trx_commit +2 +1$/m);
  assert.match(text, /^sync_binlog +0 +1$/m);
  assert.match(html, /<td[^>]*>innodb_flush_log_at_trx_commit<\/td><td[^>]*>2<\/td><td[^>]*>1<\/td>/);
}

after(async () => {
  await sink?.close();
  await rm(root, { recursive: true, force: true });
  await removeFolder(mailFolder);
});

describe('qpswatch check on the demo upstream, with email', () => {
  test('the releases are discovered and built', async () => {
    assert.equal((await cli('discover')).code, 0);
    for (const tag of ['mariadb-10.11.1', demo.slowTag, 'mariadb-10.11.9']) {
      const built = await cli('build', tag);
      assert.equal(built.code, 0, built.stderr);
    }
  });

  test('triage of a tag that does not exist, or with nothing to act on, says so and changes nothing', async () => {
    const unknown = await cli('accept', 'mariadb-10.99.0');
    assert.equal(unknown.code, 2);
    assert.deepEqual(messageLines(unknown.stderr), [
      'qpswatch: tag "mariadb-10.99.0" is not a known release of demo: run `qpswatch discover` to list them',
    ]);
    const nothing = await cli('ack', demo.slowTag);
    assert.equal(nothing.code, 2);
    assert.match(messageLines(nothing.stderr)[0] ?? '', /has no open regression to acknowledge/);
    const notBuilt = await cli('check', 'mariadb-10.11.2');
    assert.equal(notBuilt.code, 2);
    assert.deepEqual(messageLines(notBuilt.stderr), [
      'qpswatch: release "mariadb-10.11.2" is not built: run `qpswatch build mariadb-10.11.2` first',
    ]);
  });

  test('the first release checked in the series becomes last good without a session', async () => {
    const first = await check('mariadb-10.11.1');
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      /mariadb-10\.11\.1 is the first release checked in demo: it is now the last good release/,
    );
  });

  test(
    'the slow tag is flagged on its write test with a wKB/o hint; with the ' + 'mail server down the alert waits',
    async () => {
      const result = await check(demo.slowTag);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        /mariadb-10\.11\.3 against mariadb-10\.11\.1: regression; new regressions: update-index\.t1 0\.\d\d/,
      );
      assert.match(result.stdout, /update-index\.t1 .*regression/);
      assert.match(
        result.stdout,
        /update-index\.t1: regression, C\/B 0\.\d\d < 0\.60, p=[\d.e-]+; grew: .*wKB\/o x\d/,
        'a hint that names wKB/o',
      );
      assert.match(result.stdout, /1 email\(s\) queued/);
      const outbox = await cli('outbox');
      assert.equal(outbox.code, 0);
      assert.match(outbox.stdout, /qpswatch: mariadb 10\.11\.3 regressed: update-index\.t1 at 0\.\d\d of 10\.11\.1/);
      assert.match(outbox.stdout, /pending, 1 attempt\(s\), next .*, last error: .*ECONNREFUSED/);
    },
  );

  test(
    'after a restart, with the server back, the alert is delivered once: ' + 'subject, recipients, both parts, chart',
    async () => {
      sink = await startSmtpSink({ folder: mailFolder, port: smtpPort });
      const sent = await cli('outbox', '--send');
      assert.equal(sent.code, 0, sent.stderr);
      assert.match(sent.stdout, /^1 message\(s\) sent to 127\.0\.0\.1:\d+; 0 failed/);
      const again = await cli('outbox', '--send');
      assert.match(again.stdout, /^0 message\(s\) sent/);
      const received = await readReceived(mailFolder);
      assert.equal(received.length, 1, 'delivered exactly once');
      const mail = received[0]!;
      assert.deepEqual(mail.envelope.to.sort(), ['dba@example.org', 'perf@example.org']);
      assert.equal(mail.envelope.from, 'qpswatch@example.org');
      assert.match(
        mail.parsed.subject ?? '',
        /^qpswatch: mariadb 10\.11\.3 regressed: update-index\.t1 at 0\.\d\d of 10\.11\.1/,
      );
      assert.match(mail.parsed.messageId ?? '', /^<qpswatch\.regression\.session-\d+@example\.org>$/);
      const text = mail.parsed.text ?? '';
      const html = typeof mail.parsed.html === 'string' ? mail.parsed.html : '';
      for (const part of [text, html]) {
        assert.match(part, /update-index\.t1/);
        assert.match(part, /wKB\/o/);
        assert.match(part, /cpu\/o/);
        assert.match(part, /http:\/\/grafana\.example:3000\/d\/qpswatch-relative-qps\?var-series=demo/);
      }
      // A short email: the headline and the tests that moved; the whole report is one command away.
      assert.match(text, /^1 regression/m, 'the headline');
      assert.match(text, /^Tests that moved$/m);
      assert.match(html, /<table/);
      assert.match(html, /background-color:#ffebe9;color:#a40e26">regression<\/td>/, 'the verdict coloured');
      assert.match(text, /qpswatch show \d+ --format html/, 'where the full report is');
      await profileInEmail(text, html);
      variablesInEmail(text, html);
    },
  );

  test(
    'the next release recovers the write test: the event is fixed and one ' + 'recovery email goes out at once',
    async () => {
      const result = await check('mariadb-10.11.9');
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /mariadb-10\.11\.9 against mariadb-10\.11\.1: .*recovered: update-index\.t1/);
      const received = await readReceived(mailFolder);
      const recovery = received.filter((m) => /recovered/.test(m.parsed.subject ?? ''));
      assert.equal(recovery.length, 1);
      assert.match(
        recovery[0]!.parsed.subject ?? '',
        /^qpswatch: mariadb 10\.11\.9 recovered: update-index\.t1 at \d\.\d\d of 10\.11\.1/,
      );
      assert.equal(
        received.filter((m) => /mariadb 10\.11\.3 regressed/.test(m.parsed.subject ?? '')).length,
        1,
        'the first alert was never sent again',
      );
    },
  );

  test('report shows the series relative to its base, and triage is stored with who and why', async () => {
    const report = await cli('report', '--format', 'csv');
    assert.equal(report.code, 0, report.stderr);
    const lines = report.stdout.trim().split(/\r?\n/);
    const header = lines[0]!.split(',');
    const row = (version: string, test: string) => {
      const cells = lines
        .map((l) => l.split(','))
        .find((c) => c[header.indexOf('version')] === version && c[header.indexOf('test')] === test);
      assert.ok(cells, `a row for ${version} ${test} in\n${report.stdout}`);
      return (name: string) => Number(cells[header.indexOf(name)]);
    };
    assert.equal(row('10.11.1', 'update-index')('qps_rel'), 1);
    assert.ok(row('10.11.3', 'update-index')('qps_rel') < 0.95);
    assert.ok(row('10.11.3', 'update-index')('wkb_o_rel') > 1);
    const invalid = await cli('invalid', demo.slowTag, '--reason', 'fsync test host');
    assert.equal(invalid.code, 0, invalid.stderr);
    assert.match(
      invalid.stdout,
      joined(
        /marked the 1 check\(s\) of mariadb-10\.11\.3 invalid \(by /,
        /tester: fsync test host\); 0 regression\(s\) closed; queued /,
        /to be checked again/,
      ),
    );
    const accept = await cli('accept', 'mariadb-10.11.9', '--by', 'ana', '--reason', 'new normal');
    assert.match(accept.stdout, /accepted mariadb-10\.11\.9 as the last good release of demo \(by ana: new normal\)/);
  });

  test('check --against-base judges the slow tag directly against the base: a confirmed drift, one email', async () => {
    const both = await cli('check', demo.slowTag, '--against-base', '--no-confirm');
    assert.equal(both.code, 2);
    assert.match(messageLines(both.stderr)[0] ?? '', /--no-confirm has no effect with --against-base/);
    const result = await cli(
      'check',
      demo.slowTag,
      '--against-base',
      '--suite',
      join(root, 'tiny.yaml'),
      '--pairs',
      PAIRS,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /mariadb-10\.11\.3 against the base mariadb-10\.11\.1: regression; new regressions: update-index\.t1 0\.\d\d/,
    );
    assert.match(result.stdout, /confirmed drift against the base mariadb-10\.11\.1: update-index\.t1 0\.\d\d/);
    const received = await readReceived(mailFolder);
    const drifted = received.filter((m) => /mariadb 10\.11\.3 drifted/.test(m.parsed.subject ?? ''));
    assert.equal(drifted.length, 1, 'one email for the drift');
    assert.match(
      drifted[0]!.parsed.subject ?? '',
      /^qpswatch: mariadb 10\.11\.3 drifted: update-index\.t1 at 0\.\d\d of base 10\.11\.1$/,
    );
    const status = await cli('status');
    assert.match(
      status.stdout,
      /"mariadb-10\.11\.3"  update-index\.t1  0\.\d\d  drift against the base "mariadb-10\.11\.1"/,
      'status lists the open event as a drift',
    );
    const json = JSON.parse((await cli('status', '--json')).stdout) as {
      regressions: Array<{ tag: string; test: string; kind: string; baselineTag: string }>;
    };
    const event = json.regressions.find((e) => e.tag === demo.slowTag && e.test === 'update-index');
    assert.deepEqual(event && { kind: event.kind, baselineTag: event.baselineTag }, {
      kind: 'drift',
      baselineTag: 'mariadb-10.11.1',
    });
  });
});
