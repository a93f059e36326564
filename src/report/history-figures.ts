import {
  figureOf,
  mapFigures,
  type Figures,
  type HistoryStep,
  type HistoryTest,
  type HistoryVersion,
  type HistoryView,
} from '../model/index.js';
import { ratioOrOne } from './ratio.js';

/** Each figure divided by the base's (ratioOrOne: 0/0 = 1, x/0 = Infinity); null when either was not measured. */
export function relativeFigures(figures: Figures | null | undefined, base: Figures | null | undefined): Figures | null {
  if (figures === null || figures === undefined || base === null || base === undefined) return null;
  return mapFigures((field) => {
    const [value, baseValue] = [figureOf(figures, field), figureOf(base, field)];
    // NaN where either lacks the figure (results older than it): printed as not measured.
    return Number.isNaN(value) || Number.isNaN(baseValue) ? Number.NaN : ratioOrOne(value, baseValue);
  });
}

/** A test's figures relative to the base release, aligned with the versions. */
export function relativeRow(view: HistoryView, figures: ReadonlyArray<Figures | null>): (Figures | null)[] {
  const base = figures[view.baseIndex];
  return figures.map((item) => relativeFigures(item, base));
}

export const IMPORTED_MARK = '*';
export const IMPORTED_FOOTNOTE = `${IMPORTED_MARK} imported`;

/** The version as printed in tables: "10.2.30*" when its figures were imported. */
export function versionCell(version: HistoryVersion): string {
  return version.imported ? `${version.version}${IMPORTED_MARK}` : version.version;
}

/** Marks a relative QPS that is a median of unpaired runs: an import, or a release with no chain to the base. */
export const MEDIAN_MARK = '~';
export const MEDIAN_FOOTNOTE = `${MEDIAN_MARK} median of unpaired runs, no interval`;
/** Where a step began, down or up (docs/verdicts.md, "Where a step began"). */
export const STEP_MARKS: Readonly<Record<HistoryStep['direction'], string>> = { down: '\u25bc', up: '\u25b2' };
export const STEP_FOOTNOTE = `${STEP_MARKS.down} ${STEP_MARKS.up} a step down or up began at this version`;

/** One version's relative QPS against the base as the history shows it: chained with its interval, or a median. */
export type HistoryRelativeQps =
  | { source: 'chained'; value: number; low: number; high: number; steps: number; step: HistoryStep | null }
  | { source: 'median'; value: number };

/**
 * A test's relative QPS against the base, aligned with the versions: the chained estimate where the version has one,
 * else the median of its runs over the base's (ratioOrOne); null where either was not measured.
 */
export function relativeQpsRow(view: HistoryView, row: HistoryTest): (HistoryRelativeQps | null)[] {
  const medians = relativeRow(view, row.figures);
  return view.versions.map((_, index) => {
    const chained = row.chained?.[index] ?? null;
    if (chained !== null)
      return {
        source: 'chained',
        value: chained.relativeQps,
        low: chained.low,
        high: chained.high,
        steps: chained.steps,
        step: chained.step,
      };
    const median = medians[index]?.qps;
    return median === undefined ? null : { source: 'median', value: median };
  });
}

/** Whether any test of the view has a chained estimate. */
export function hasChained(view: HistoryView): boolean {
  return view.tests.some((row) => (row.chained ?? []).some((c) => c !== null));
}
