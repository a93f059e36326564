import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { letServerPass } from '../helpers/server-user.js';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeDemoUpstream } from '../../scripts/demo-upstream/make.js';
import { run } from '../../src/exec/index.js';
import { projectRoot } from '../helpers/paths.js';
import {
  annotationExpressions,
  dashboardExpressions,
  ruleExpressions,
  variableExpressions,
} from '../helpers/promql.js';
import { freePort } from '../helpers/smtp.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * The daemon in production, as far as a test can go: `qpswatch daemon` runs its catch-up cycle on the demo
 * upstream (discover, build two releases, check the slow one against the first), Debian's prometheus scrapes it
 * every second, and every PromQL expression of every dashboard panel, dashboard variable and alert rule is
 * evaluated through Prometheus' HTTP API. Each must return data, except the ones listed in EMPTY_WHILE_WELL
 * (docs/dashboards.md says the same): alerts that only fire when something is wrong. The dashboards' annotation
 * queries mark events and must mark nothing here (see the test).
 */
const EMPTY_WHILE_WELL: Record<string, string> = {
  QpswatchDown: 'the daemon is up',
  QpswatchNoPoll: 'the daemon polled a moment ago',
  QpswatchBuildFailures: 'no build failed',
};

/**
 * Dashboard panels that show data only when the check had an undecided test: whether one of this test's noisy
 * sessions leaves a test slower or unstable is up to the host, so the panel may be empty; its query is still run.
 */
const EMPTY_WHEN_ALL_DECIDED = new Set(['Slower and undecided tests (inconclusive checks)']);

/**
 * Dashboard panels of the instructions lane's families: they exist only for releases whose check ran the lane, and
 * this test turns it off (instruction_counter: off; instruction-lane.test has it on). Their queries are still run.
 */
const EMPTY_WITHOUT_INSTRUCTIONS_LANE = new Set([
  '$test, $threads threads, memory ${memory:text}: instructions per query by version',
  '$test, $threads threads, memory ${memory:text}: instructions per query against the base and the last good release',
]);

let root = '';
let metricsPort = 0;
let promPort = 0;
let daemon: ChildProcess | undefined;
let prometheus: ChildProcess | undefined;
let daemonLog = '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs / 1000} s waiting for ${what}\n--- daemon log ---\n${daemonLog.slice(-4000)}`,
      );
    await sleep(1000);
  }
}

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  return response.text();
}

function gauge(text: string, line: RegExp): number | undefined {
  const m = text.split('\n').find((l) => line.test(l));
  return m === undefined ? undefined : Number(m.split(' ').at(-1));
}

async function query(expr: string, range?: { start: number; end: number; step: string }): Promise<unknown[]> {
  const url = new URL(`http://127.0.0.1:${promPort}/api/v1/${range === undefined ? 'query' : 'query_range'}`);
  url.searchParams.set('query', expr);
  if (range !== undefined) {
    url.searchParams.set('start', String(range.start));
    url.searchParams.set('end', String(range.end));
    url.searchParams.set('step', range.step);
  }
  const body = (await (await fetch(url)).json()) as { status: string; error?: string; data?: { result: unknown[] } };
  assert.equal(body.status, 'success', `${expr}: ${body.error ?? ''}`);
  return body.data?.result ?? [];
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

before(async () => {
  root = await mkdtemp('/tmp/qpsw-prom-');
  letServerPass(root);
  await makeDemoUpstream(join(root, 'upstream'));
  metricsPort = await freePort();
  promPort = await freePort();
  await writeFile(
    join(root, 'qpswatch.yaml'),
    [
      `state_dir: ${join(root, 'state')}\nserver_profiles_dir: ${testServerProfilesDir()}`,
      `cache_dir: ${join(root, 'cache')}`,
      `host_lock: ${join(root, 'host.lock')}`,
      'log_level: info',
      // Its regressions' profiles are tested by check-release.test; here they would only add time.
      'profiling: off',
      // The instructions lane has tests of its own (instruction-lane.test); here it would add minutes.
      'instruction_counter: off',
      'log_format: json',
      'min_free_bytes: 1000000',
      // Far away: the cycle this test waits for is the catch-up cycle at start (nothing was ever polled).
      'schedule: "0 0 1 1 *"',
      `suite: ${join(root, 'tiny.yaml')}`,
      // Whole runs, 5 rounds: the regression this test alerts on is flagged at p = 1/252 (the paired design is tested
      // by the check and compare tests).
      'design: runs',
      // 7 whole rounds: the write test runs at 2 client threads on this 2-core host, noisier than at 1, and 5
      // rounds (252 relabelings) did not always reach alpha for it.
      'rounds: 7',
      // One test with its own threshold: the daemon exports it for the alert rule and the dashboards.
      'test_thresholds: { point-query: 0.9 }',
      'metrics_host: 127.0.0.1',
      `metrics_port: ${metricsPort}`,
      // The test's own builds just ran on this host: do not wait for it to be quiet, and look only briefly (the
      // default look lasts 10 s; the quiet-host record and its metrics are there all the same).
      'quiet_max_busy_percent: 100',
      'quiet_window_seconds: 0.2',
      'upstreams:',
      `  - { name: demo, remote: ${join(root, 'upstream')}, flavor: mariadb, ` +
        `series: "10.11", build_profile: demo, server_profile: relaxed, base: ` +
        `"10.11.1", include: ["mariadb-10.11.1", "mariadb-10.11.3"] }`,
      '',
    ].join('\n'),
  );
  await writeFile(
    join(root, 'tiny.yaml'),
    // Two concurrency levels, so the threads dimension reaches the metrics, the dashboards and the rules; one test
    // each, so the family stays at two tests.
    'name: tiny\ndescription: one read test at 1 thread and one write test at 2\n' +
      'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 1 }\n' +
      ('tests:\n  - { name: update-index, script: oltp_update_index }\n  - { ' +
        'name: point-query, script: oltp_point_select }\n') +
      ('levels:\n  - { threads: 1, load: { tables: 1, table_size: 2000 }, ' +
        'tests: [point-query] }\n  - { threads: 2, load: { tables: 2, ' +
        'table_size: 1000 }, tests: [update-index] }\n'),
  );
  await writeFile(
    join(root, 'prometheus.yml'),
    `global: { scrape_interval: 1s, evaluation_interval: 1s ` +
      `}\nscrape_configs:\n  - job_name: qpswatch\n    static_configs: [{ ` +
      `targets: ["127.0.0.1:${metricsPort}"] }]\n`,
  );
});

after(async () => {
  await stop(prometheus);
  await stop(daemon);
  await rm(root, { recursive: true, force: true });
});

describe('the daemon scraped by a real Prometheus', () => {
  test(
    'qpswatch daemon runs its catch-up cycle on the demo upstream and serves the results',
    { timeout: 15 * 60_000 },
    async () => {
      daemon = spawn(
        process.execPath,
        [join(projectRoot, 'bin', 'qpswatch.js'), '--config', join(root, 'qpswatch.yaml'), 'daemon'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      daemon.stderr?.setEncoding('utf8').on('data', (d: string) => (daemonLog += d));
      const text = await waitFor('the slow tag to be checked', 12 * 60_000, async () => {
        const t = await scrape();
        return (gauge(t, /^qpswatch_queue_releases\{state="done"\}/) ?? 0) >= 2 ? t : undefined;
      });
      assert.match(
        text,
        /^qpswatch_relative_to_last_good_ratio\{.*version="10\.11\.3".*test="update-index".*\} 0\.\d+/m,
      );
      for (const [test, threads] of [
        ['point-query', '1'],
        ['update-index', '2'],
      ]) {
        assert.match(
          text,
          new RegExp(
            `^qpswatch_relative_to_last_good_ratio\\{.*version="10\\.11\\.3".*` +
              `test="${test}",threads="${threads}".*\\} [\\d.]+$`,
            'm',
          ),
          `${test} at ${threads} threads`,
        );
      }
      assert.match(text, /^qpswatch_active_regressions\{series="demo"\} 1/m);
      assert.match(text, /^qpswatch_regression_threshold_ratio\{series="demo",test="update-index"\} 0\.95$/m);
      assert.match(text, /^qpswatch_regression_threshold_ratio\{series="demo",test="point-query"\} 0\.9$/m);
      assert.match(text, /^qpswatch_build_info\{version="\d+\.\d+\.\d+[^"]*",node_version="v\d+\.\d+\.\d+"\} 1$/m);
    },
  );

  test('promtool check metrics has nothing to say about qpswatch families', async () => {
    const result = await run({ argv: ['promtool', 'check', 'metrics'], input: await scrape(), allowFailure: true });
    const about = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => l.startsWith('qpswatch_'));
    assert.deepEqual(about, []);
  });

  test(
    'every dashboard and alert expression returns data from Prometheus, or is documented as empty while all is well',
    { timeout: 5 * 60_000 },
    async () => {
      const promStarted = Math.floor(Date.now() / 1000);
      prometheus = spawn(
        'prometheus',
        [
          `--config.file=${join(root, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(root, 'tsdb')}`,
          `--web.listen-address=127.0.0.1:${promPort}`,
        ],
        { stdio: 'ignore' },
      );
      await waitFor('prometheus to scrape the daemon', 60_000, async () =>
        (await query('up{job="qpswatch"} == 1')).length > 0 ? true : undefined,
      );
      // rate() and increase() need two samples in their window.
      await sleep(6000);
      const intervals = { __rate_interval: '20s', __interval: '2s', __range: '5m' };
      const expressions = [
        ...dashboardExpressions({ intervals }).map((e) => ({
          where: `${e.file} / ${e.panel} / ${e.refId}`,
          expr: e.expr,
          alert: undefined,
          mayBeEmpty: EMPTY_WHEN_ALL_DECIDED.has(e.title) || EMPTY_WITHOUT_INSTRUCTIONS_LANE.has(e.title),
        })),
        ...variableExpressions({ intervals }).map((e) => ({
          where: `${e.file} / variable ${e.variable}`,
          expr: e.expr,
          alert: undefined,
        })),
        ...ruleExpressions().map((e) => ({ where: `${e.file} / ${e.alert}`, expr: e.expr, alert: e.alert })),
      ];
      assert.ok(expressions.length > 30, `${expressions.length} expressions`);
      // A renamed panel must not slip out of the list unnoticed: every title in it names a panel.
      const titles = new Set(dashboardExpressions({ intervals }).map((e) => e.title));
      for (const title of [...EMPTY_WHEN_ALL_DECIDED, ...EMPTY_WITHOUT_INSTRUCTIONS_LANE])
        assert.ok(titles.has(title), `no dashboard panel is titled ${title}`);
      const empty: string[] = [];
      for (const e of expressions) {
        const result = await query(e.expr.replace(/^label_values\((.*)\)$/, '$1'));
        const expectedEmpty = e.alert !== undefined && EMPTY_WHILE_WELL[e.alert] !== undefined;
        if (result.length === 0 && !expectedEmpty && !('mayBeEmpty' in e && e.mayBeEmpty))
          empty.push(`${e.where}: ${e.expr}`);
        if (expectedEmpty) assert.deepEqual(result, [], `${e.where} fires while all is well`);
      }
      assert.deepEqual(empty, [], 'expressions with no data');

      // The annotation queries, as Grafana runs them: over the time Prometheus has watched, one step per
      // $__interval. They mark a release at the step it is first checked, or a poll that found releases. Here the
      // cycle ended before Prometheus started, so nothing happened while it watched: every one must be empty, and a
      // mark would be a false one (the releases the daemon already served, marked at Prometheus' first scrape).
      const annotations = annotationExpressions({ intervals });
      assert.ok(annotations.length > 0, 'annotation queries');
      const range = { start: promStarted, end: Math.ceil(Date.now() / 1000), step: intervals.__interval };
      for (const a of annotations)
        assert.deepEqual(await query(a.expr, range), [], `${a.file} / annotation ${a.annotation} marks: ${a.expr}`);
    },
  );

  test('SIGTERM stops the daemon cleanly', async () => {
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => daemon!.once('exit', (code) => resolve(code)));
    daemon!.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(Date.now() - started < 60_000);
  });
});
