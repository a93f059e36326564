import { stepVerdict } from '../analysis/index.js';
import type { BisectStepRecord } from '../store/index.js';
import { runComparison, type CompareDeps, type CompareRequest } from '../session/index.js';
import type { CommitEntry, Upstream } from '../upstream/index.js';
import { buildCommit, type CommitBuildOutcome } from './build-commit.js';
import type { BuildSettings } from './build-release.js';

export interface BisectStepDeps extends CompareDeps {
  buildSettings: BuildSettings;
  upstream: Upstream;
}

export interface StepRequest extends Pick<CompareRequest, 'suite' | 'budgetMinutes' | 'maxPairs'> {
  /** The good release's tag: B of every step's session. */
  goodTag: string;
  /** The regressed tag, for logs. */
  badTag: string;
  buildProfile: string;
}

/** One step's record and its build (for pruning), or undefined when the build did not start. */
export interface StepResult {
  step: BisectStepRecord;
  build: CommitBuildOutcome;
}

/**
 * Builds the commit with the release's build profile and, when it built, runs the regressed tests as a paired
 * session of the good release (B) against it (C). An undecided session gets one more with twice the pairs and
 * budget; if that one cannot decide either, the step is undecided.
 */
export async function runBisectStep(
  entry: CommitEntry,
  request: StepRequest,
  deps: BisectStepDeps,
): Promise<StepResult> {
  const label = `${entry.commit.slice(0, 12)} (bisect of ${request.badTag})`;
  const build = await buildCommit(
    { commit: entry.commit, label },
    deps.upstream,
    {
      settings: deps.buildSettings,
      log: deps.log,
      signal: deps.signal,
    },
    request.buildProfile,
  );
  const base = { commit: entry.commit, subject: entry.subject, author: entry.author, buildKey: build.key };
  if (build.status === 'failed')
    return { step: { ...base, outcome: 'skip', failureLines: [...build.failureLines] }, build };
  const name = `bisect-${entry.commit.slice(0, 12)}`;
  const settings = {
    ...deps.settings,
    targets: {
      ...deps.settings.targets,
      [name]: {
        kind: 'installed' as const,
        flavor: deps.upstream.flavor,
        basedir: build.installDir,
        server_profile: deps.upstream.serverProfile,
      },
    },
  };
  const maxPairs = request.maxPairs ?? settings.maxPairs;
  const budgetMinutes = request.budgetMinutes ?? settings.budgetMinutes ?? request.suite.budgetMinutes;
  let extra = 1;
  for (;;) {
    const outcome = await runComparison(
      {
        baseline: request.goodTag,
        candidate: name,
        suite: request.suite,
        rounds: 1,
        design: 'paired',
        maxPairs: Math.min(1000, maxPairs * extra),
        budgetMinutes: budgetMinutes * extra,
      },
      { ...deps, settings },
    );
    const verdict = stepVerdict(outcome.verdicts.map((v) => v.kind));
    const relativeQps = Object.fromEntries(outcome.verdicts.map((v) => [`${v.test}.t${v.threads}`, v.relativeQps]));
    if (verdict !== 'undecided' || extra > 1)
      return { step: { ...base, outcome: verdict, sessionId: outcome.sessionId, relativeQps }, build };
    deps.log.info({ commit: entry.commit }, 'bisect: the step is undecided; one more session with twice the pairs');
    extra = 2;
  }
}
