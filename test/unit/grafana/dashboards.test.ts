import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RELEASE_FAMILIES } from '../../../src/metrics/index.js';
import { joined } from '../../helpers/pattern.js';
import {
  allPanels,
  dashboardFiles,
  dashboardsDir,
  readDashboard,
  rulesFile,
  variableQuery,
  type GrafanaDashboard,
} from '../../helpers/grafana.js';

/** The uids other parts of qpswatch link to (emails link to qpswatch-relative-qps?var-series=...). */
const UIDS = ['qpswatch-health', 'qpswatch-per-op', 'qpswatch-qps-over-time', 'qpswatch-relative-qps'];
const RELEASE_DASHBOARDS = ['qpswatch-per-op', 'qpswatch-qps-over-time', 'qpswatch-relative-qps'];
const GRAFANA_VARIABLES = new Set(['__rate_interval', '__interval', '__range']);
const DATASOURCE = '${datasource}';

const dashboards = dashboardFiles().map((file) => ({ file, ...readDashboard(file) }));

function usedVariables(text: string): string[] {
  return [...text.matchAll(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g)].map((m) => (m[1] ?? m[2])!);
}

function queryPanels(d: GrafanaDashboard) {
  return allPanels(d).filter((p) => p.type !== 'row');
}

test('the four dashboards are there, each uid once', () => {
  assert.deepEqual(dashboards.map((d) => d.dashboard.uid).sort(), UIDS);
});

for (const { file, raw, dashboard } of dashboards) {
  describe(`grafana/dashboards/${file}`, () => {
    test('is a provisioned dashboard: no __inputs, no import placeholders, a recent schema', () => {
      assert.equal('__inputs' in raw, false);
      assert.doesNotMatch(readFileSync(join(dashboardsDir, file), 'utf8'), /\$\{DS_/);
      assert.ok(dashboard.schemaVersion >= 36, `schemaVersion ${dashboard.schemaVersion} predates Grafana 9`);
    });

    test('has a datasource variable listing Prometheus datasources', () => {
      const v = dashboard.templating.list.find((x) => x.name === 'datasource');
      assert.equal(v?.type, 'datasource');
      assert.equal(v?.query, 'prometheus');
    });

    test('panel ids are unique, rows included', () => {
      const ids = allPanels(dashboard).map((p) => p.id);
      assert.deepEqual(
        ids.filter((id, i) => ids.indexOf(id) !== i),
        [],
      );
    });

    test('every panel, target and query variable uses ${datasource}', () => {
      const wrong: string[] = [];
      for (const p of queryPanels(dashboard)) {
        if (p.datasource?.uid !== DATASOURCE) wrong.push(`panel ${p.id} ${p.title}`);
        if ((p.targets ?? []).length === 0) wrong.push(`panel ${p.id} ${p.title} has no query`);
        for (const t of p.targets ?? [])
          if (t.datasource?.uid !== DATASOURCE) wrong.push(`panel ${p.id} target ${t.refId}`);
      }
      for (const v of dashboard.templating.list)
        if (v.type === 'query' && v.datasource?.uid !== DATASOURCE) wrong.push(`variable ${v.name}`);
      assert.deepEqual(wrong, []);
    });

    test('every variable a query, title or repeat names is defined', () => {
      const defined = new Set(dashboard.templating.list.map((v) => v.name));
      const texts = [
        ...queryPanels(dashboard).flatMap((p) => [p.title, ...(p.targets ?? []).map((t) => t.expr ?? '')]),
        ...allPanels(dashboard).flatMap((p) => [p.title, p.repeat === undefined ? '' : `$${p.repeat}`]),
        ...dashboard.templating.list.map((v) => variableQuery(v) ?? ''),
      ];
      const unknown = texts.flatMap(usedVariables).filter((name) => !defined.has(name) && !GRAFANA_VARIABLES.has(name));
      assert.deepEqual([...new Set(unknown)], []);
    });

    test('tables of releases are sorted by version_key before it is hidden', () => {
      for (const p of queryPanels(dashboard).filter((x) => (x.targets ?? []).some((t) => t.format === 'table'))) {
        const ids = (p.transformations ?? []).map((t) => t.id);
        const sort = (p.transformations ?? []).find((t) => t.id === 'sortBy');
        assert.ok(sort, `panel ${p.id} ${p.title} has no sortBy transformation`);
        assert.deepEqual(sort.options, { fields: {}, sort: [{ field: 'version_key', desc: false }] });
        assert.ok(
          ids.indexOf('sortBy') < ids.indexOf('organize'),
          `panel ${p.id}: sortBy must come before organize drops version_key`,
        );
      }
    });
  });
}

/** The families labelled with a host (the per-release ones and the verdict): every query of them picks $host. */
const HOST_FAMILIES = new Set([...RELEASE_FAMILIES.map((f) => f.name), 'qpswatch_verdict_info']);

/** Each selector of a per-release family in a query: its name and what stands between its braces. */
function hostFamilySelectors(expr: string): Array<{ name: string; matchers: string }> {
  return [...expr.matchAll(/\b(qpswatch_\w+)\{([^}]*)\}/g)]
    .filter((m) => HOST_FAMILIES.has(m[1]!))
    .map((m) => ({ name: m[1]!, matchers: m[2]! }));
}

describe('the host variable (a fleet of hosts in one Prometheus)', () => {
  for (const { file, dashboard } of dashboards) {
    const selectors = queryPanels(dashboard).flatMap((p) =>
      (p.targets ?? []).flatMap((t) => hostFamilySelectors(t.expr ?? '').map((s) => ({ panel: p, ...s }))),
    );
    if (selectors.length === 0) continue;
    test(`${file}: a host variable from label_values(..., host), used by every per-release query`, () => {
      const v = dashboard.templating.list.find((x) => x.name === 'host');
      assert.equal(v?.type, 'query');
      assert.match(variableQuery(v!) ?? '', /^label_values\(qpswatch_\w+(\{[^}]*\})?, host\)$/);
      const missing = selectors
        .filter((s) => !/(^|, )host=~"\$host"(,|$)/.test(s.matchers))
        .map((s) => `panel ${s.panel.id} ${s.panel.title}: ${s.name}{${s.matchers}}`);
      assert.deepEqual(missing, []);
    });
  }
});

describe('release dashboards', () => {
  for (const { dashboard } of dashboards.filter((d) => RELEASE_DASHBOARDS.includes(d.dashboard.uid))) {
    test(`${dashboard.uid} has the series, host and test variables from label_values`, () => {
      for (const name of ['series', 'host', 'test']) {
        const v = dashboard.templating.list.find((x) => x.name === name);
        assert.equal(v?.type, 'query', `${name} variable`);
        assert.match(variableQuery(v) ?? '', new RegExp(`^label_values\\(qpswatch_\\w+.*, ${name}\\)$`));
      }
    });
  }

  test('relative QPS bars are repeated per test, split at the exported threshold (red under it), a line at 1', () => {
    const d = dashboards.find((x) => x.dashboard.uid === 'qpswatch-relative-qps')!.dashboard;
    assert.ok(allPanels(d).some((p) => p.type === 'row' && p.repeat === 'test'));
    const bars = queryPanels(d).filter(
      (p) => p.type === 'barchart' && /^qpswatch_relative_qps_ratio\{/.test(p.targets?.[0]?.expr ?? ''),
    );
    assert.equal(bars.length, 1);
    const panel = bars[0]!;
    assert.deepEqual(
      panel.targets!.map(
        (t) =>
          / (<|>=) on\(job, instance, series, test\) group_left qpswatch_regression_threshold_ratio\{/.exec(
            t.expr ?? '',
          )?.[1],
      ),
      ['<', '>='],
    );
    const config = panel['fieldConfig'] as {
      defaults: {
        thresholds: { steps: Array<{ value: number | null }> };
        custom: { thresholdsStyle: { mode: string } };
      };
      overrides: Array<{
        matcher: { options: string };
        properties: Array<{ id: string; value: { fixedColor?: string } }>;
      }>;
    };
    assert.deepEqual(
      config.defaults.thresholds.steps.map((s) => s.value),
      [null, 1],
    );
    assert.equal(config.defaults.custom.thresholdsStyle.mode, 'line');
    assert.deepEqual(
      config.overrides.map((o) => [o.matcher.options, o.properties.find((p) => p.id === 'color')?.value.fixedColor]),
      [
        ['under the threshold', 'red'],
        ['at or over the threshold', 'green'],
      ],
    );
    assert.equal((panel['options'] as { stacking: string }).stacking, 'normal');
  });

  test(
    'no dashboard or alert rule holds the threshold as a number: they ' +
      'compare with qpswatch_regression_threshold_ratio',
    () => {
      for (const { file } of dashboards)
        assert.doesNotMatch(readFileSync(join(dashboardsDir, file), 'utf8'), /0\.95\b/, file);
      assert.doesNotMatch(readFileSync(rulesFile, 'utf8'), /0\.95\b/);
      const perOp = dashboards.find((x) => x.dashboard.uid === 'qpswatch-per-op')!.dashboard;
      const exprs = queryPanels(perOp).flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
      assert.ok(
        exprs.some((e) =>
          joined(
            /^qpswatch_relative_to_last_good_ratio\{.*\} - on\(job, /,
            /instance, series, test\) group_left /,
            /qpswatch_regression_threshold_ratio\{/,
          ).test(e),
        ),
        'per-op: the margin over the threshold',
      );
    },
  );

  test(
    "the detectable drop of each release's check is a bar chart in percent " + 'beside it, a line at the 5% margin',
    () => {
      const d = dashboards.find((x) => x.dashboard.uid === 'qpswatch-relative-qps')!.dashboard;
      const bars = queryPanels(d).filter(
        (p) => p.type === 'barchart' && /^qpswatch_detectable_drop_ratio\{/.test(p.targets?.[0]?.expr ?? ''),
      );
      assert.equal(bars.length, 1);
      const panel = bars[0]!;
      assert.match(panel.title, /detectable drop by version$/);
      assert.equal(panel.repeat, 'threads');
      assert.match(
        panel.targets![0]!.expr!,
        /host=~"\$host", series=~"\$series", test=~"\$test", threads=~"\$threads"/,
      );
      const defaults = (
        panel['fieldConfig'] as { defaults: { unit: string; thresholds: { steps: Array<{ value: number | null }> } } }
      ).defaults;
      assert.equal(defaults.unit, 'percentunit');
      assert.deepEqual(
        defaults.thresholds.steps.map((s) => s.value),
        [null, 0.05, 0.1],
      );
    },
  );
});
