import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RELEASE_FAMILIES } from '../../../src/metrics/index.js';
import { joined } from '../../helpers/pattern.js';
import {
  allPanels,
  annotationQueries,
  dashboardFiles,
  dashboardsDir,
  readDashboard,
  rulesFile,
  variableQuery,
  type GrafanaDashboard,
  type GrafanaPanel,
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
      for (const a of annotationQueries(dashboard)) {
        if (a.datasource?.uid !== DATASOURCE) wrong.push(`annotation ${a.name}`);
        if (a.target === undefined) wrong.push(`annotation ${a.name} has no query`);
        else if (a.target.datasource?.uid !== DATASOURCE) wrong.push(`annotation ${a.name} target`);
      }
      assert.deepEqual(wrong, []);
    });

    test('every variable a query, title or repeat names is defined', () => {
      const defined = new Set(dashboard.templating.list.map((v) => v.name));
      const texts = [
        ...queryPanels(dashboard).flatMap((p) => [p.title, ...(p.targets ?? []).map((t) => t.expr ?? '')]),
        ...allPanels(dashboard).flatMap((p) => [p.title, p.repeat === undefined ? '' : `$${p.repeat}`]),
        ...dashboard.templating.list.map((v) => variableQuery(v) ?? ''),
        ...annotationQueries(dashboard).map((a) => a.target?.expr ?? ''),
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
        if (ids.includes('groupingToMatrix'))
          assert.ok(
            ids.indexOf('sortBy') < ids.indexOf('groupingToMatrix'),
            `panel ${p.id}: sortBy must come before groupingToMatrix drops version_key`,
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
    test(`${file}: a host variable from label_values(..., host), used by every per-release query and mark`, () => {
      const v = dashboard.templating.list.find((x) => x.name === 'host');
      assert.equal(v?.type, 'query');
      assert.match(variableQuery(v!) ?? '', /^label_values\(qpswatch_\w+(\{[^}]*\})?, host\)$/);
      const annotated = annotationQueries(dashboard).flatMap((a) =>
        hostFamilySelectors(a.target?.expr ?? '').map((s) => ({ where: `annotation ${a.name}`, ...s })),
      );
      const missing = [...selectors.map((s) => ({ where: `panel ${s.panel.id} ${s.panel.title}`, ...s })), ...annotated]
        .filter((s) => !/(^|, )host=~"\$host"(,|$)/.test(s.matchers))
        .map((s) => `${s.where}: ${s.name}{${s.matchers}}`);
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

/** The filters every per-release panel of a release dashboard applies, in this order. */
const RELEASE_FILTERS = 'host=~"$host", series=~"$series", test=~"$test", threads=~"$threads", memory=~"$memory"';

function board(uid: string): GrafanaDashboard {
  return dashboards.find((x) => x.dashboard.uid === uid)!.dashboard;
}

type FieldOverride = { matcher: { options: string }; properties: Array<{ id: string; value: unknown }> };
interface BarFieldConfig {
  defaults: {
    unit: string;
    color: { mode: string; fixedColor?: string };
    thresholds: { steps: Array<{ color: string; value: number | null }> };
    custom: { cellOptions?: { type: string } };
  };
  overrides: FieldOverride[];
}

function fieldConfig(panel: GrafanaPanel): BarFieldConfig {
  return panel['fieldConfig'] as BarFieldConfig;
}

function property(config: BarFieldConfig, field: string, id: string): unknown {
  return config.overrides.find((o) => o.matcher.options === field)?.properties.find((p) => p.id === id)?.value;
}

describe('relative QPS at a glance', () => {
  const d = board('qpswatch-relative-qps');

  test('a version × test table per thread count: relative QPS against the base, grouped to a matrix', () => {
    const matrices = queryPanels(d).filter((p) => (p.transformations ?? []).some((t) => t.id === 'groupingToMatrix'));
    assert.equal(matrices.length, 1);
    const panel = matrices[0]!;
    assert.equal(panel.type, 'table');
    assert.equal(panel.repeat, 'threads');
    assert.deepEqual(
      panel.targets!.map((t) => [t.expr, t.format]),
      [[`qpswatch_relative_qps_ratio{${RELEASE_FILTERS}}`, 'table']],
    );
    assert.deepEqual(
      panel.transformations!.map((t) => t.id),
      ['sortBy', 'groupingToMatrix', 'organize'],
    );
    // One frame in, one row per version (in the order sortBy left them), one column per test.
    assert.deepEqual(panel.transformations![1]!.options, {
      columnField: 'test',
      rowField: 'version',
      valueField: 'Value',
      emptyValue: 'null',
    });
    // The matrix names its first column "row\column".
    assert.deepEqual(panel.transformations![2]!.options, {
      excludeByName: {},
      indexByName: {},
      renameByName: { 'version\\test': 'version' },
    });
  });

  test('its cells are coloured by the ratio: red and orange under the base, none around 1, green over', () => {
    const panel = queryPanels(d).find((p) => (p.transformations ?? []).some((t) => t.id === 'groupingToMatrix'))!;
    const config = fieldConfig(panel);
    assert.equal(config.defaults.custom.cellOptions?.type, 'color-background');
    assert.equal(config.defaults.color.mode, 'thresholds');
    const steps = config.defaults.thresholds.steps;
    assert.equal(steps[0]!.value, null);
    const values = steps.slice(1).map((s) => s.value!);
    assert.deepEqual(
      values,
      [...values].sort((a, b) => a - b),
      'steps ascend',
    );
    const colourAt = (ratio: number) => steps.filter((s) => s.value === null || s.value <= ratio).at(-1)!.color;
    assert.deepEqual([0.5, 0.92, 0.99, 1, 1.01, 1.2].map(colourAt), [
      'red',
      'orange',
      'transparent',
      'transparent',
      'transparent',
      'green',
    ]);
    // The version column is text, not a coloured cell.
    assert.deepEqual(property(config, 'version', 'custom.cellOptions'), { type: 'auto' });
  });

  test('the interval is a floating band from its low to its high end, split at the estimate, not paired bars', () => {
    const panel = queryPanels(d).find((p) => /interval of the chained relative QPS by version$/.test(p.title))!;
    assert.equal(panel.type, 'barchart');
    assert.equal((panel['options'] as { stacking: string }).stacking, 'normal');
    const f = RELEASE_FILTERS;
    assert.deepEqual(
      panel.targets!.map((t) => t.expr),
      [
        `qpswatch_relative_qps_low_ratio{${f}}`,
        `clamp_min(qpswatch_relative_qps_ratio{${f}} - qpswatch_relative_qps_low_ratio{${f}}, 0)`,
        `clamp_min(qpswatch_relative_qps_high_ratio{${f}} - qpswatch_relative_qps_ratio{${f}}, 0)`,
      ],
    );
    const organize = panel.transformations!.find((t) => t.id === 'organize')!.options as {
      indexByName: Record<string, number>;
      renameByName: Record<string, string>;
    };
    // Stacked in this order: the invisible base first.
    assert.deepEqual(
      Object.entries(organize.indexByName)
        .sort((a, b) => a[1] - b[1])
        .map(([name]) => organize.renameByName[name] ?? name),
      ['version', 'low end', '+ up to the estimate', '+ up to the high end'],
    );
    const config = fieldConfig(panel);
    assert.deepEqual(property(config, 'low end', 'color'), { mode: 'fixed', fixedColor: 'transparent' });
    assert.equal(property(config, 'low end', 'custom.fillOpacity'), 0);
    assert.equal(property(config, 'low end', 'custom.lineWidth'), 0);
    assert.equal(config.defaults.color.mode, 'fixed');
  });
});

describe('release annotations', () => {
  const BOARDS: Record<string, string[]> = {
    'qpswatch-qps-over-time': ['Release checked', 'Regression found'],
    'qpswatch-health': ['Releases discovered', 'Release checked', 'Regression found'],
  };

  test('the boards with time series mark releases; the others have no annotation queries', () => {
    for (const { dashboard } of dashboards)
      assert.deepEqual(
        annotationQueries(dashboard).map((a) => a.name),
        BOARDS[dashboard.uid] ?? [],
        dashboard.uid,
      );
  });

  for (const [uid, names] of Object.entries(BOARDS)) {
    test(`${uid}: each mark compares with one step ago ($__interval) and names what it marks`, () => {
      for (const a of annotationQueries(board(uid)).filter((x) => names.includes(x.name))) {
        const expr = a.target!.expr;
        assert.match(expr, / offset \$__interval\b/, a.name);
        assert.match(a.titleFormat ?? '', /\S/, a.name);
        if (/qpswatch_verdict_info\{/.test(expr)) {
          // Present now, absent a step ago, and the target was scraped a step ago: a restart marks nothing.
          assert.match(expr, / unless count by \(job, instance, host, flavor, series, version\) \(/, a.name);
          assert.match(expr, / and on\(job, instance\) \(up offset \$__interval == 1\)$/, a.name);
          assert.match(a.titleFormat!, /\{\{version\}\}/, a.name);
          assert.equal(a.tagKeys, 'flavor,series', a.name);
        }
      }
    });
  }
});

describe('off-CPU time and instructions per query', () => {
  const d = board('qpswatch-per-op');
  const byTitle = (suffix: string) => {
    const found = queryPanels(d).filter((p) => p.title.endsWith(`: ${suffix}`));
    assert.equal(found.length, 1, suffix);
    return found[0]!;
  };

  test('the per-op table has an off-CPU/op column beside CPU/op', () => {
    const table = byTitle('per-operation resources');
    const target = table.targets!.find((t) => t.expr === `qpswatch_off_cpu_seconds_per_op{${RELEASE_FILTERS}}`);
    assert.ok(target);
    const organize = table.transformations!.find((t) => t.id === 'organize')!.options as {
      indexByName: Record<string, number>;
      renameByName: Record<string, string>;
    };
    const key = `Value #${target.refId}`;
    assert.equal(organize.renameByName[key], 'off-CPU/op');
    assert.equal(organize.indexByName[key], organize.indexByName[`Value #D`]! + 1);
    assert.equal(property(fieldConfig(table), 'off-CPU/op', 'unit'), 's');
  });

  const CHARTS: Array<[string, string[], string]> = [
    ['off-CPU time per operation by version', [`qpswatch_off_cpu_seconds_per_op{${RELEASE_FILTERS}}`], 's'],
    ['instructions per query by version', [`qpswatch_instructions_per_query{${RELEASE_FILTERS}}`], 'short'],
    [
      'instructions per query against the base and the last good release',
      [
        `qpswatch_instructions_relative_to_base_ratio{${RELEASE_FILTERS}} - 1`,
        `qpswatch_instructions_relative_to_last_good_ratio{${RELEASE_FILTERS}} - 1`,
      ],
      'percentunit',
    ],
  ];
  for (const [title, exprs, unit] of CHARTS) {
    test(`a bar chart by version per test and thread count: ${title}`, () => {
      const panel = byTitle(title);
      assert.equal(panel.type, 'barchart');
      assert.equal(panel.repeat, 'threads');
      assert.equal((panel['options'] as { xField: string }).xField, 'version');
      assert.deepEqual(
        panel.targets!.map((t) => t.expr),
        exprs,
      );
      assert.equal(fieldConfig(panel).defaults.unit, unit);
    });
  }
});
