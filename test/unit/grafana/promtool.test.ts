import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ExecNotFoundError, run } from '../../../src/exec/index.js';
import { prometheusDir, rulesFile } from '../../helpers/grafana.js';
import { dashboardExpressions, ruleExpressions, variableExpressions } from '../../helpers/promql.js';

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

  test('every dashboard query and variable selector is valid PromQL after substitution', async () => {
    const exprs = [...dashboardExpressions(), ...variableExpressions()];
    const rules = exprs.map((e, i) => ({ record: `qpswatch_check:expr_${i}`, expr: e.expr }));
    await withTempDir(async (dir) => {
      const file = join(dir, 'dashboards.rules.yml');
      writeFileSync(file, stringify({ groups: [{ name: 'dashboard-expressions', rules }] }));
      const r = await promtool(['check', 'rules', file]);
      // promtool names the failing rule by its record name: list which query each one is.
      const index = exprs.map(
        (e, i) => `expr_${i}: ${e.file} ${'panel' in e ? `panel ${e.panel} ${e.refId}` : `variable ${e.variable}`}`,
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
