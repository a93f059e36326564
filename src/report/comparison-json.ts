import { orderedInstructions } from './instructions-data.js';
import { shownFigures } from './shown-figures.js';
import {
  figureOf,
  type ComparisonView,
  type RowVerdict,
  type SidePerOp,
  type SideSummary,
  type TargetLabel,
  type TestRow,
} from '../model/index.js';

// Each object is rebuilt field by field so the key order is the interfaces' order whatever order the input had;
// records (host facts, counters) are sorted by key. Unknown extra fields are dropped.

function sortedRecord<V>(record: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function orderedTarget(t: TargetLabel): TargetLabel {
  return {
    name: t.name,
    flavor: t.flavor,
    version: t.version,
    serverProfile: t.serverProfile,
    ...(t.buildProfile !== undefined ? { buildProfile: t.buildProfile } : {}),
  };
}

/** In the per-op tables' order; a time figure the side's samples lack is left out, as older sessions had it. */
function orderedPerOp(p: SidePerOp): SidePerOp {
  return Object.fromEntries(shownFigures([p]).map(({ field }) => [field, figureOf(p, field)])) as SidePerOp;
}

function orderedSide(s: SideSummary): SideSummary {
  return {
    qps: s.qps,
    samples: s.samples,
    qpsMin: s.qpsMin,
    qpsMax: s.qpsMax,
    perOp: orderedPerOp(s.perOp),
    dbPerOp: sortedRecord(s.dbPerOp),
    ...(s.hitRatio !== undefined ? { hitRatio: s.hitRatio } : {}),
  };
}

function orderedVerdict(v: RowVerdict): RowVerdict {
  return {
    kind: v.kind,
    threshold: v.threshold,
    pSlower: v.pSlower,
    pFaster: v.pFaster,
    baselineSpread: v.baselineSpread,
    low: v.low,
    high: v.high,
    confidence: v.confidence,
    detectableDrop: v.detectableDrop,
    pairs: v.pairs,
    noise: v.noise,
    hint: v.hint.map((h) => ({ metric: h.metric, baseline: h.baseline, candidate: h.candidate, ratio: h.ratio })),
  };
}

function orderedRow(r: TestRow): TestRow {
  return {
    test: r.test,
    threads: r.threads,
    baseline: orderedSide(r.baseline),
    candidate: orderedSide(r.candidate),
    relativeQps: r.relativeQps,
    ...(r.verdict !== undefined ? { verdict: orderedVerdict(r.verdict) } : {}),
  };
}

/** The view itself as JSON with a stable key order, two-space indented, ending with a newline. */
export function comparisonJson(view: ComparisonView): string {
  const ordered: ComparisonView = {
    sessionId: view.sessionId,
    suite: view.suite,
    rounds: view.rounds,
    ...(view.design !== undefined ? { design: view.design } : {}),
    ...(view.memory !== undefined ? { memory: view.memory } : {}),
    ...(view.levels !== undefined
      ? {
          levels: view.levels.map((l) => ({
            threads: l.threads,
            threadsSpec: l.threadsSpec,
            tables: l.tables,
            tableSize: l.tableSize,
          })),
        }
      : {}),
    startedAt: view.startedAt,
    finishedAt: view.finishedAt,
    baseline: orderedTarget(view.baseline),
    candidate: orderedTarget(view.candidate),
    host: sortedRecord(view.host),
    tests: view.tests.map(orderedRow),
    ...(view.instructions !== undefined ? { instructions: orderedInstructions(view.instructions) } : {}),
    ...(view.variables !== undefined ? { variables: view.variables } : {}),
    ...(view.plans !== undefined ? { plans: view.plans } : {}),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
