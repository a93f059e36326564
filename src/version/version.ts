import { VersionParseError } from './errors.js';

/**
 * A MySQL-family server version: MAJOR.MINOR.PATCH plus an optional build (Percona's "-28", or "-91.0").
 * A missing build sorts like build 0, so 8.0.36 and 8.0.36-0 are the same version.
 */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly build: readonly number[];
  /** Canonical text, e.g. "8.0.36-28". */
  readonly text: string;
}

/** Each number fits three digits, so versionKey can sort as text. */
export const MAX_VERSION_PART = 999;
const EXPECTED =
  'MAJOR.MINOR.PATCH with an optional numeric build suffix, each number 0-999, e.g. "10.11.9" or "8.0.36-28"';
const VERSION_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:-(\d{1,3}(?:\.\d{1,3})*))?$/;

export function parseVersion(text: string): Version {
  const m = VERSION_RE.exec(text.trim());
  if (m === null) throw new VersionParseError(text, EXPECTED);
  const build = m[4] === undefined ? [] : m[4].split('.').map(Number);
  return makeVersion(Number(m[1]), Number(m[2]), Number(m[3]), build);
}

export function makeVersion(major: number, minor: number, patch: number, build: readonly number[] = []): Version {
  for (const part of [major, minor, patch, ...build]) {
    if (!Number.isInteger(part) || part < 0 || part > MAX_VERSION_PART) {
      throw new VersionParseError(
        `${major}.${minor}.${patch}${build.length > 0 ? `-${build.join('.')}` : ''}`,
        EXPECTED,
      );
    }
  }
  const text = `${major}.${minor}.${patch}` + (build.length > 0 ? `-${build.join('.')}` : '');
  return { major, minor, patch, build: [...build], text };
}

/** The numbers in order of significance: what comparisons and keys are made of. */
export function versionParts(v: Version): number[] {
  return [v.major, v.minor, v.patch, ...v.build];
}

/** Compares lists of numbers; the shorter list is padded with zeros. */
export function compareParts(a: readonly number[], b: readonly number[]): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Numeric order, never text order: 10.11.10 > 10.11.9, 8.0.36-27 < 8.0.36-28. Returns -1, 0 or 1. */
export function compareVersions(a: Version, b: Version): number {
  return compareParts(versionParts(a), versionParts(b));
}

/**
 * A key that sorts as text in version order (for Prometheus labels and Grafana): zero-padded groups,
 * at least four ("010.011.009.000"); trailing zero build groups beyond the fourth are dropped, as they compare equal.
 */
export function versionKey(v: Version): string {
  const parts = versionParts(v);
  while (parts.length > 4 && parts.at(-1) === 0) parts.pop();
  while (parts.length < 4) parts.push(0);
  return parts.map((p) => String(p).padStart(3, '0')).join('.');
}
