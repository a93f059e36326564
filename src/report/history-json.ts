import { relativeRow } from './history-figures.js';
import { FIGURE_FIELDS, mapFigures, type Figures, type HistoryView } from '../model/index.js';

/** A relative figure in JSON: a number, or null for x/0 (JSON has no infinity). */
export type HistoryRelativeFigures = { [K in keyof Figures]: number | null };

function orderedFigures(f: Figures): Figures {
  return mapFigures((field) => f[field]);
}

function jsonRelative(f: Figures | null): HistoryRelativeFigures | null {
  if (f === null) return null;
  return Object.fromEntries(FIGURE_FIELDS.map((field) => [field, Number.isFinite(f[field]) ? f[field] : null])) as HistoryRelativeFigures;
}

/**
 * The view in a stable key order, each test with `relative`: its figures divided by the base's, aligned with the
 * versions (0/0 = 1, x/0 = null, null where either version was not measured). Two-space indented, newline-ended.
 */
export function historyJson(view: HistoryView): string {
  const ordered = {
    series: view.series, flavor: view.flavor, baseIndex: view.baseIndex,
    versions: view.versions.map((v) => ({ version: v.version, label: v.label, imported: v.imported })),
    tests: view.tests.map((row) => ({
      test: row.test, threads: row.threads,
      figures: row.figures.map((f) => (f === null ? null : orderedFigures(f))),
      relative: relativeRow(view, row.figures).map(jsonRelative),
      ...(row.detectableDrop !== undefined ? { detectableDrop: [...row.detectableDrop] } : {}),
    })),
    host: view.host, generatedAt: view.generatedAt,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
