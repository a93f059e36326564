import type { CheckRecord, ReleaseRecord, TriageRecord } from '../store/index.js';
import { newestValidChecks } from './newest-check.js';

/**
 * Why a release counts as good: its newest valid check was conclusive (every test ok or improvement: model
 * isConclusive, the one rule), or a person (or qpswatch, for the first) accepted it.
 */
export interface GoodRelease {
  release: ReleaseRecord;
  reason: 'ok' | 'accepted';
}

/**
 * The last good release of one upstream: the newest release, in version order, whose newest valid check was
 * conclusive or that was accepted. A release whose newest check regressed is not good even if an older check of it
 * was ok.
 * `below` keeps to releases older than the one being judged, so a check never compares a release with a newer one.
 */
export function selectLastGood(
  releases: readonly ReleaseRecord[],
  checks: readonly CheckRecord[],
  triage: readonly TriageRecord[],
  below?: ReleaseRecord,
): GoodRelease | undefined {
  const candidates = releases
    .filter((r) => below === undefined || (r.upstream === below.upstream && r.versionKey < below.versionKey))
    .sort((a, b) => (a.versionKey < b.versionKey ? 1 : a.versionKey > b.versionKey ? -1 : 0));
  const newest = newestValidChecks(checks, (c) => c.releaseId);
  for (const release of candidates) {
    const reason = goodness(release, newest.get(release.id), triage);
    if (reason !== undefined) return { release, reason };
  }
  return undefined;
}

function goodness(
  release: ReleaseRecord,
  newest: CheckRecord | undefined,
  triage: readonly TriageRecord[],
): GoodRelease['reason'] | undefined {
  if (triage.some((t) => t.releaseId === release.id && t.action === 'accept')) return 'accepted';
  return newest?.conclusive === true ? 'ok' : undefined;
}

/**
 * How a check stands, as status and check print it: regression when a test regressed; inconclusive when none did but
 * a test was slower or unstable, so the release did not become last good on it; ok when every test was decided.
 */
export type CheckStanding = 'regression' | 'inconclusive' | 'ok';

export function checkStanding(check: Pick<CheckRecord, 'outcome' | 'conclusive'>): CheckStanding {
  if (check.outcome === 'regression') return 'regression';
  return check.conclusive ? 'ok' : 'inconclusive';
}
