import type { CheckRecord } from '../store/index.js';

/**
 * The one rule of "the newest valid check": a check marked invalid never counts; of the others, the check of the
 * newest session (the highest session id) speaks for its key. `keyOf` says what is grouped (a release, a release on
 * a host, a series) and leaves a check out by giving undefined. Keys keep the order in which they were first seen.
 */
export function newestValidChecks<C extends Pick<CheckRecord, 'invalid' | 'sessionId'>, K>(
  checks: readonly C[],
  keyOf: (check: C) => K | undefined,
): Map<K, C> {
  const newest = new Map<K, C>();
  for (const check of checks) {
    if (check.invalid) continue;
    const key = keyOf(check);
    if (key === undefined) continue;
    const known = newest.get(key);
    if (known === undefined || check.sessionId >= known.sessionId) newest.set(key, check);
  }
  return newest;
}
