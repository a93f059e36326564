import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../../helpers/paths.js';
import {
  annotationExpressions,
  dashboardExpressions,
  metricNames,
  ruleExpressions,
  variableExpressions,
} from '../../helpers/promql.js';

/**
 * The families src/metrics exports plus Prometheus' and prom-client's own: the one list to change with the exporter.
 */
const families = new Set(
  readFileSync(fixturePath('grafana', 'metric-families.txt'), 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter((l) => l !== ''),
);

const everything = [
  ...dashboardExpressions().map((e) => ({ where: `${e.file} panel ${e.panel} ${e.refId}`, expr: e.expr })),
  ...variableExpressions().map((e) => ({ where: `${e.file} variable ${e.variable}`, expr: e.expr })),
  ...annotationExpressions().map((e) => ({ where: `${e.file} annotation ${e.annotation}`, expr: e.expr })),
  ...ruleExpressions().map((e) => ({ where: `${e.file} alert ${e.alert}`, expr: e.expr })),
];

test('the expressions were found: four dashboards of panels, their variables and annotations, and four alerts', () => {
  assert.ok(dashboardExpressions().length >= 20, `${dashboardExpressions().length} dashboard queries`);
  assert.ok(annotationExpressions().length >= 5, `${annotationExpressions().length} annotation queries`);
  assert.equal(ruleExpressions().length, 4);
  assert.ok(variableExpressions().length >= 13);
});

test('every dashboard query, variable and alert rule names only listed metric families', () => {
  const unknown = everything.flatMap(({ where, expr }) =>
    metricNames(expr)
      .filter((n) => !families.has(n))
      .map((n) => `${where}: ${n}`),
  );
  assert.deepEqual(unknown, []);
});

test('every expression selects at least one metric', () => {
  assert.deepEqual(
    everything.filter(({ expr }) => metricNames(expr).length === 0).map((e) => e.where),
    [],
  );
});

test('every qpswatch_ family is shown on some dashboard', () => {
  const shown = new Set(dashboardExpressions().flatMap((e) => metricNames(e.expr)));
  assert.deepEqual(
    [...families].filter((f) => f.startsWith('qpswatch_') && !shown.has(f)),
    [],
  );
});
