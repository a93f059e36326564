import { relativeQpsRow, relativeRow, type HistoryRelativeQps } from './history-figures.js';
import { shownFigures } from './shown-figures.js';
import { FIGURE_FIELDS, figureOf, type Figures, type HistoryInstructions, type HistoryView } from '../model/index.js';

/** A relative figure in JSON: a number, or null for x/0 (JSON has no infinity). */
export type HistoryRelativeFigures = { [K in keyof Figures]: number | null };

/** The figures in order; a time figure the version's results lack (shownFigures) is left out. */
const shownFields = (f: Partial<Figures>): (keyof Figures)[] => {
  const shown = new Set<string>(shownFigures([f]).map((s) => s.field));
  return FIGURE_FIELDS.filter((field) => shown.has(field));
};

function orderedFigures(f: Figures): Figures {
  return Object.fromEntries(shownFields(f).map((field) => [field, figureOf(f, field)])) as Figures;
}

function jsonRelative(f: Figures | null): HistoryRelativeFigures | null {
  if (f === null) return null;
  return Object.fromEntries(
    shownFields(f).map((field) => [field, Number.isFinite(f[field]) ? figureOf(f, field) : null]),
  ) as HistoryRelativeFigures;
}

/** Relative QPS against the base in JSON: chained with low and high, or a median (low and high null); x/0 as null. */
export function jsonRelativeQps(r: HistoryRelativeQps | null): Record<string, unknown> | null {
  if (r === null) return null;
  const value = Number.isFinite(r.value) ? r.value : null;
  if (r.source === 'median') return { value, low: null, high: null, source: 'median', steps: null, step: null };
  return {
    value,
    low: r.low,
    high: r.high,
    source: 'chained',
    steps: r.steps,
    step: r.step === null ? null : { direction: r.step.direction, ratio: r.step.ratio },
  };
}

/** A version's instructions lane figure in a stable key order; null where it was not counted. */
function jsonInstructions(c: HistoryInstructions | null): HistoryInstructions | null {
  if (c === null) return null;
  return {
    perQuery: c.perQuery,
    spread: c.spread,
    repeats: c.repeats,
    relativeToBase: c.relativeToBase,
    low: c.low,
    high: c.high,
    verdict: c.verdict,
  };
}

/**
 * The view in a stable key order, each test with `relative`: its figures divided by the base's, aligned with the
 * versions (0/0 = 1, x/0 = null, null where either version was not measured), and `relativeQps`: relative QPS as the
 * report shows it, chained to the base with its interval or the median (source chained or median), and, for a test
 * the instructions lane counted, `instructions`: per version its figure and ratio to the base (null: not counted).
 * Two-space indented, newline-ended.
 */
export function historyJson(view: HistoryView): string {
  const ordered = {
    series: view.series,
    flavor: view.flavor,
    baseIndex: view.baseIndex,
    versions: view.versions.map((v) => ({ version: v.version, label: v.label, imported: v.imported })),
    tests: view.tests.map((row) => ({
      test: row.test,
      threads: row.threads,
      ...(row.memory !== undefined ? { memory: row.memory } : {}),
      figures: row.figures.map((f) => (f === null ? null : orderedFigures(f))),
      relative: relativeRow(view, row.figures).map(jsonRelative),
      ...(row.detectableDrop !== undefined ? { detectableDrop: [...row.detectableDrop] } : {}),
      ...(row.threshold !== undefined ? { threshold: row.threshold } : {}),
      relativeQps: relativeQpsRow(view, row).map(jsonRelativeQps),
      ...(row.instructions !== undefined ? { instructions: row.instructions.map(jsonInstructions) } : {}),
    })),
    host: view.host,
    ...(view.confidence !== undefined ? { confidence: view.confidence } : {}),
    generatedAt: view.generatedAt,
    ...(view.bisections !== undefined ? { bisections: view.bisections } : {}),
    ...(view.hostChanges !== undefined ? { hostChanges: view.hostChanges } : {}),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
