import { VersionRangeError } from './errors.js';
import { compareParts, versionParts, type Version } from './version.js';

export type RangeOperator = '>=' | '>' | '<=' | '<' | '=';

/**
 * One comparison against a bound of one to three numbers (plus a build when all three are given).
 * A shorter bound names a series: versions are cut to its length before comparing, so "<=8.0" admits 8.0.99
 * and "=8.0.36" admits Percona's 8.0.36-28.
 */
export interface VersionComparator {
  readonly op: RangeOperator;
  readonly bound: readonly number[];
  readonly text: string;
}

/** Comparators that must all hold. */
export interface VersionRange {
  readonly text: string;
  readonly comparators: readonly VersionComparator[];
}

const TOKEN_RE = /^(>=|<=|>|<|=)?(\d{1,3}(?:\.\d{1,3}){0,2})(?:-(\d{1,3}(?:\.\d{1,3})*))?$/;

export function parseVersionRange(text: string): VersionRange {
  // ">= 8.0" reads as ">=8.0": people write both.
  const tokens = text
    .trim()
    .replace(/(>=|<=|>|<|=)\s+/g, '$1')
    .split(/\s+/)
    .filter((t) => t !== '');
  if (tokens.length === 0) throw new VersionRangeError(text, text, 'the range is empty');
  return { text: text.trim(), comparators: tokens.map((token) => parseComparator(text, token)) };
}

function parseComparator(text: string, token: string): VersionComparator {
  const m = TOKEN_RE.exec(token);
  if (m === null) throw new VersionRangeError(text, token, 'not an operator followed by a version');
  const series = m[2]!.split('.').map(Number);
  if (m[3] !== undefined && series.length < 3) {
    throw new VersionRangeError(text, token, 'a build suffix needs a full MAJOR.MINOR.PATCH version');
  }
  const build = m[3] === undefined ? [] : m[3].split('.').map(Number);
  return { op: (m[1] ?? '=') as RangeOperator, bound: [...series, ...build], text: token };
}

export function rangeIncludes(range: VersionRange, v: Version): boolean {
  return range.comparators.every((c) => comparatorHolds(c, v));
}

function comparatorHolds(c: VersionComparator, v: Version): boolean {
  const cut = versionParts(v).slice(0, c.bound.length);
  const d = compareParts(cut, c.bound);
  switch (c.op) {
    case '>=':
      return d >= 0;
    case '>':
      return d > 0;
    case '<=':
      return d <= 0;
    case '<':
      return d < 0;
    case '=':
      return d === 0;
  }
}
