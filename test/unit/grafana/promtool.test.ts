import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ExecNotFoundError, run } from '../../../src/exec/index.js';
import { prometheusDir, rulesFile } from '../../helpers/grafana.js';
import {
  annotationExpressions,
  dashboardExpressions,
  ruleExpressions,
  variableExpressions,
} from '../../helpers/promql.js';

/**
 * promtool from Debian's prometheus package (scripts/ensure-deps.sh installs it). Resolves with its exit and output.
 */
async function promtool(args: string[], cwd?: string): Promise<{ ok: boolean; output: string }> {
  try {
    const r = await run({
      argv: ['promtool', ...args],
      allowFailure: true,
      timeoutMs: 60_000,
      ...(cwd === undefined ? {} : { cwd }),
    });
    return { ok: r.exitCode === 0, output: `${r.stdout}${r.stderr}` };
  } catch (err) {
    if (err instanceof ExecNotFoundError)
      throw new Error("promtool not found: install Debian's prometheus package (bash scripts/ensure-deps.sh)");
    throw err;
  }
}

function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-promtool-'));
  return fn(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe('promtool', () => {
  test('check rules accepts the alert rules', async () => {
    const r = await promtool(['check', 'rules', rulesFile]);
    assert.ok(r.ok, r.output);
    assert.match(r.output, /SUCCESS: 4 rules found/);
  });

  test('the unit tests of the alert rules pass (firing and not firing for every alert)', async () => {
    const r = await promtool(['test', 'rules', 'qpswatch.rules.test.yml'], prometheusDir);
    assert.ok(r.ok, r.output);
  });

  test('the rule unit tests cover every alert', () => {
    const tests = readFileSync(join(prometheusDir, 'qpswatch.rules.test.yml'), 'utf8');
    for (const { alert } of ruleExpressions()) {
      assert.match(
        tests,
        new RegExp(`alertname: ${alert}\\n\\s+exp_alerts: \\[\\]`),
        `${alert} has no not-firing case`,
      );
      assert.match(tests, new RegExp(`alertname: ${alert}\\n\\s+exp_alerts:\\n`), `${alert} has no firing case`);
    }
  });

  test(
    'the rule unit tests give one test its own threshold (test_thresholds) ' + 'and change it while an alert fires',
    () => {
      const tests = readFileSync(join(prometheusDir, 'qpswatch.rules.test.yml'), 'utf8');
      const threshold = (test: string, values: string): RegExp =>
        new RegExp(
          `series: ` +
            `'qpswatch_regression_threshold_ratio\\{[^}]*test="${test}"\\}'\\n\\s+values: ` +
            `'${values.replace(/\./g, '\\.')}'`,
        );
      assert.match(tests, threshold('update-index', '0.90x5'));
      assert.match(tests, threshold('point-query', '0.95x5'));
      assert.match(tests, threshold('update-index', '0.95 0.95 0.95 0.90 0.90 0.90'));
    },
  );

  test('every dashboard query, variable selector and annotation query is valid PromQL after substitution', async () => {
    const exprs = [...dashboardExpressions(), ...variableExpressions(), ...annotationExpressions()];
    const rules = exprs.map((e, i) => ({ record: `qpswatch_check:expr_${i}`, expr: e.expr }));
    await withTempDir(async (dir) => {
      const file = join(dir, 'dashboards.rules.yml');
      writeFileSync(file, stringify({ groups: [{ name: 'dashboard-expressions', rules }] }));
      const r = await promtool(['check', 'rules', file]);
      // promtool names the failing rule by its record name: list which query each one is.
      const index = exprs.map(
        (e, i) =>
          `expr_${i}: ${e.file} ${
            'panel' in e
              ? `panel ${e.panel} ${e.refId}`
              : 'variable' in e
                ? `variable ${e.variable}`
                : `annotation ${e.annotation}`
          }`,
      );
      assert.ok(r.ok, `${r.output}\n${index.join('\n')}`);
      assert.match(r.output, new RegExp(`SUCCESS: ${rules.length} rules found`));
    });
  });

  test('the scrape config is valid and loads the alert rules', async () => {
    await withTempDir(async (dir) => {
      const config = readFileSync(join(prometheusDir, 'scrape.yml'), 'utf8').replace(
        '/etc/prometheus/qpswatch.rules.yml',
        rulesFile,
      );
      assert.ok(config.includes(rulesFile), 'scrape.yml names /etc/prometheus/qpswatch.rules.yml');
      const file = join(dir, 'prometheus.yml');
      writeFileSync(file, config);
      const r = await promtool(['check', 'config', file]);
      assert.ok(r.ok, r.output);
      assert.match(r.output, /SUCCESS: 4 rules found/);
    });
  });
});

/**
 * The annotation queries as Grafana runs them: a range query whose step is `$__interval` (here 1m, the promtool
 * interval), a mark at each step with a sample over 0. One story, minute by minute, with a Prometheus that starts at
 * 0: release 10.11.9 was checked before it started, 10.11.10 is checked at 5m (one test regressed), the daemon is
 * down at 10m and 11m (its series go stale) and back at 12m, 10.11.11 is checked at 13m, and a poll at 4m discovers
 * two releases. Each event must be marked once, at its own step, and neither the start of Prometheus nor the
 * restart of the daemon may mark the releases it already had.
 */
describe('the annotation queries mark each release event once', () => {
  const MINUTES = 15;
  type Sample = number | '_' | 'stale';
  /** One value per minute: before `from` none, then `value`, stale at 10m, none at 11m (the daemon restarts). */
  const story = (from: number, value: (minute: number) => number): string =>
    Array.from({ length: MINUTES }, (_, m): Sample => (m < from || m === 11 ? '_' : m === 10 ? 'stale' : value(m)))
      .map(String)
      .join(' ');
  const target = 'job="qpswatch", instance="127.0.0.1:9467"';
  const release = (version: string, versionKey: string, test: string, kind: string): string =>
    `qpswatch_verdict_info{${target}, host="h1", flavor="mariadb", series="mariadb-10.11", version="${version}", ` +
    `version_key="${versionKey}", test="${test}", threads="1", profile="small-server", kind="${kind}"}`;
  const input_series = [
    {
      series: `up{${target}}`,
      values: Array.from({ length: MINUTES }, (_, m) => (m === 10 || m === 11 ? 0 : 1)).join(' '),
    },
    { series: release('10.11.9', '010.011.009', 'update-index', 'ok'), values: story(0, () => 1) },
    { series: release('10.11.10', '010.011.010', 'update-index', 'regression'), values: story(5, () => 1) },
    { series: release('10.11.10', '010.011.010', 'point-query', 'ok'), values: story(5, () => 1) },
    { series: release('10.11.11', '010.011.011', 'update-index', 'ok'), values: story(13, () => 1) },
    { series: `qpswatch_releases_discovered_total{${target}}`, values: story(0, (m) => (m < 4 ? 3 : 5)) },
  ];
  const mark = (version: string) =>
    `{job="qpswatch", instance="127.0.0.1:9467", host="h1", flavor="mariadb", series="mariadb-10.11", ` +
    `version="${version}"}`;
  /** Per annotation name: the minutes it marks, with the sample's labels and value (tests counted, releases found). */
  const EXPECTED: Record<string, Record<number, { labels: string; value: number }>> = {
    'Release checked': { 5: { labels: mark('10.11.10'), value: 2 }, 13: { labels: mark('10.11.11'), value: 1 } },
    'Regression found': { 5: { labels: mark('10.11.10'), value: 1 } },
    'Releases discovered': { 4: { labels: `{${target}}`, value: 2 } },
  };
  const annotations = annotationExpressions({ intervals: { __interval: '1m' } });

  test('every annotation query has its expected marks here', () => {
    assert.deepEqual(
      annotations.filter((a) => EXPECTED[a.annotation] === undefined).map((a) => `${a.file} ${a.annotation}`),
      [],
    );
  });

  for (const a of annotations) {
    test(`${a.file}: ${a.annotation}`, async () => {
      const expected = EXPECTED[a.annotation] ?? {};
      const promql_expr_test = Array.from({ length: MINUTES }, (_, m) => ({
        expr: a.expr,
        eval_time: `${m}m`,
        exp_samples: expected[m] === undefined ? [] : [expected[m]],
      }));
      await withTempDir(async (dir) => {
        const file = join(dir, 'annotations.test.yml');
        writeFileSync(file, stringify({ tests: [{ interval: '1m', input_series, promql_expr_test }] }));
        const r = await promtool(['test', 'rules', file]);
        assert.ok(r.ok, r.output);
      });
    });
  }
});
