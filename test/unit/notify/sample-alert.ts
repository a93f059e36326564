import type { AlertContent } from '../../../src/notify/index.js';
import type { ComparisonView, RowVerdict } from '../../../src/model/index.js';
import { sampleView } from '../report/sample-view.js';

function verdict(kind: RowVerdict['kind'], hint: RowVerdict['hint'] = []): RowVerdict {
  const interval = kind === 'regression' ? { low: 0.94, high: 0.97 } : { low: 0.98, high: 1.1 };
  return {
    kind,
    threshold: 0.97,
    pSlower: kind === 'regression' ? 0.012 : 0.6,
    pFaster: 0.9,
    baselineSpread: 0.004,
    ...interval,
    confidence: 0.95,
    detectableDrop: 0.03,
    pairs: 14,
    noise: 0.025,
    hint,
  };
}

/** The report room's sample session, judged: point-query regressed (with a hint), update-index ok. */
export function judgedView(): ComparisonView {
  const view = sampleView();
  const [pointQuery, updateIndex] = view.tests;
  if (pointQuery === undefined || updateIndex === undefined) throw new Error('sample view changed shape');
  pointQuery.verdict = verdict('regression', [
    { metric: 'cpu/o', baseline: 0.000312, candidate: 0.000331, ratio: 0.000331 / 0.000312 },
    { metric: 'rKB/o', baseline: 0, candidate: 0.0021, ratio: null },
  ]);
  updateIndex.verdict = verdict('ok');
  view.design = 'paired';
  return view;
}

export function regressionAlert(over: Partial<AlertContent> = {}): AlertContent {
  return {
    kind: 'regression',
    flavor: 'mariadb',
    upstream: 'mariadb-10.11',
    tag: 'mariadb-10.11.10',
    version: '10.11.10',
    comparedWith: { tag: 'mariadb-10.11.9', version: '10.11.9' },
    tests: [{ test: 'point-query', threads: 1 }],
    comparison: judgedView(),
    fingerprintId: 'fp-3f2a9c',
    dashboardUrl: 'https://grafana.example.org/d/qpswatch?var-series=mariadb-10.11&var-version=10.11.10',
    ...over,
  };
}
