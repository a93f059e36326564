import { InputError } from '../errors.js';
import type { CheckStore, ReleaseRecord } from '../store/index.js';
import { listCommits, syncMirror, type CommitEntry, type Upstream } from '../upstream/index.js';
import type { Logger } from '../log/index.js';
import { mirrorDirFor } from '../releases/index.js';
import type { BisectLane } from './bisect-step.js';

/** The good end is not an ancestor of the regressed tag (on its first-parent history, unless --all-parents). */
export class BisectRangeError extends InputError {
  constructor(
    readonly good: string,
    readonly bad: string,
  ) {
    super(
      `bisect: ${JSON.stringify(good)} is not an ancestor of ${JSON.stringify(bad)} (on its first-parent ` +
        `history unless --all-parents): name a good release of the same history with --good TAG`,
    );
  }
}

/** No test to bisect on: none was named, and the tag's newest check has no regressed test. */
export class NoRegressedTestsError extends InputError {
  constructor(readonly tag: string) {
    super(
      `bisect: ${JSON.stringify(tag)} has no check with a regressed test: name the tests to bisect on ` +
        `(qpswatch bisect TAG TEST...), or check the tag first (qpswatch check TAG)`,
    );
  }
}

/**
 * The commits after the good release up to the regressed tag's (included), oldest first, read from the upstream's
 * mirror after syncing it. git lists good..bad whatever the two are to each other, so the range is checked: on the
 * first-parent history the oldest commit's first parent is the good one; across all parents some commit of the range
 * has it as a parent (it is then an ancestor of the tag).
 */
export async function bisectRange(
  upstream: Upstream,
  ends: { good: ReleaseRecord; bad: ReleaseRecord; firstParent: boolean },
  opts: { cacheDir: string; signal: AbortSignal; log: Logger },
): Promise<CommitEntry[]> {
  const mirror = mirrorDirFor(opts.cacheDir, upstream.remote);
  await syncMirror(upstream.remote, mirror, { signal: opts.signal, log: opts.log });
  const commits = await listCommits(mirror, ends.good.commit, ends.bad.commit, {
    firstParent: ends.firstParent,
    signal: opts.signal,
    log: opts.log,
  });
  if (!reachesGood(commits, ends)) throw new BisectRangeError(ends.good.tag, ends.bad.tag);
  return commits;
}

/**
 * The tests of the release's newest valid check that regressed, as "name" (one entry per test name): in the QPS
 * lane's verdicts, or in the instructions lane's (none when that lane did not run).
 */
export async function regressedTests(
  store: CheckStore,
  release: ReleaseRecord,
  lane: BisectLane = 'qps',
): Promise<string[]> {
  const checks = (await store.listChecks(release.upstream)).filter((c) => c.releaseId === release.id && !c.invalid);
  const newest = checks.sort((a, b) => a.judgedAt.localeCompare(b.judgedAt)).at(-1);
  if (newest === undefined) return [];
  const verdicts =
    lane === 'qps'
      ? await store.verdictsOfSession(newest.sessionId)
      : await store.instructionVerdictsOfSession(newest.sessionId);
  return [...new Set(verdicts.filter((v) => v.kind === 'regression').map((v) => v.test))];
}

/** Whether the listed range runs from the good release's commit to the tag's, as bisectRange says. */
export function reachesGood(
  commits: readonly CommitEntry[],
  ends: { good: Pick<ReleaseRecord, 'commit'>; bad: Pick<ReleaseRecord, 'commit'>; firstParent: boolean },
): boolean {
  if (commits.length === 0 || commits.at(-1)?.commit !== ends.bad.commit) return false;
  return ends.firstParent
    ? commits[0]!.parents[0] === ends.good.commit
    : commits.some((c) => c.parents.includes(ends.good.commit));
}
