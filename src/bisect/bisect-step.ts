import { judgeAgainstStored, stepVerdict } from '../analysis/index.js';
import type { BisectStepRecord, InstructionRunRecord } from '../store/index.js';
import {
  MeasureFailedError,
  runComparison,
  type CompareDeps,
  type CompareOutcome,
  type CompareRequest,
} from '../session/index.js';
import { DatadirInitError, ServerDiedError, ServerStartError, ServerVersionError } from '../server/index.js';
import type { CommitEntry, Upstream } from '../upstream/index.js';
import { buildCommit, type CommitBuildOutcome } from '../releases/index.js';
import type { BuildSettings } from '../releases/index.js';

export interface BisectStepDeps extends CompareDeps {
  buildSettings: BuildSettings;
  upstream: Upstream;
}

/** What judges a step: a paired QPS session, or one counted run per test of the instructions lane. */
export const bisectLanes = ['qps', 'instructions'] as const;
export type BisectLane = (typeof bisectLanes)[number];

/** The good end's instruction counts for the instructions lane's steps. */
export interface GoodFigures {
  /** Its stored runs per condition key, for the keys a step's runs have (counted once when missing). */
  figures(conditionKeys: readonly string[]): Promise<Map<string, InstructionRunRecord[]>>;
  /** Whether the bisection had to count the good end itself (one more counted run per test). */
  readonly counted: boolean;
}

export interface StepRequest extends Pick<CompareRequest, 'suite' | 'budgetMinutes' | 'maxPairs'> {
  /** The good release's tag: B of every step's session. */
  goodTag: string;
  /** The regressed tag, for logs. */
  badTag: string;
  /** Its version: the build profile is resolved for it. */
  badVersion: string;
  buildProfile: string;
  lane: BisectLane;
  /** The instructions lane's good end (lane instructions). */
  goodFigures?: GoodFigures;
}

/** One step's record and its build (for pruning), or undefined when the build did not start. */
export interface StepResult {
  step: BisectStepRecord;
  build: CommitBuildOutcome;
}

/**
 * Builds the commit with the release's build profile and, when it built, runs the regressed tests as a paired
 * session of the good release (B) against it (C). An undecided session gets one more with twice the pairs and
 * budget; if that one cannot decide either, the step is undecided. A commit whose server cannot be started, set up
 * or measured is skipped, as one that does not build. `onBuilt` hears of the install as soon as it exists, so it is
 * removed even when the session then fails.
 */
export async function runBisectStep(
  entry: CommitEntry,
  request: StepRequest,
  deps: BisectStepDeps,
  onBuilt: (build: CommitBuildOutcome) => void = () => undefined,
): Promise<StepResult> {
  const label = `${entry.commit.slice(0, 12)} (bisect of ${request.badTag})`;
  const build = await buildCommit(
    { commit: entry.commit, label, version: request.badVersion },
    deps.upstream,
    {
      settings: deps.buildSettings,
      log: deps.log,
      signal: deps.signal,
    },
    request.buildProfile,
  );
  onBuilt(build);
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
  if (request.lane === 'instructions')
    return { step: await instructionStep(base, name, request, { ...deps, settings }), build };
  const maxPairs = request.maxPairs ?? settings.maxPairs;
  const budgetMinutes = request.budgetMinutes ?? settings.budgetMinutes ?? request.suite.budgetMinutes;
  let extra = 1;
  for (;;) {
    const outcome = await untestable(deps, () =>
      runComparison(
        {
          baseline: request.goodTag,
          candidate: name,
          suite: request.suite,
          rounds: 1,
          design: 'paired',
          purpose: 'bisect',
          maxPairs: Math.min(1000, maxPairs * extra),
          budgetMinutes: budgetMinutes * extra,
        },
        { ...deps, settings },
      ),
    );
    if (!('sessionId' in outcome)) return { step: { ...base, outcome: 'skip', failureLines: [outcome.reason] }, build };
    const verdict = stepVerdict(outcome.verdicts.map((v) => v.kind));
    const relativeQps = Object.fromEntries(outcome.verdicts.map((v) => [`${v.test}.t${v.threads}`, v.relativeQps]));
    if (verdict !== 'undecided' || extra > 1)
      return { step: { ...base, outcome: verdict, sessionId: outcome.sessionId, relativeQps }, build };
    deps.log.info({ commit: entry.commit }, 'bisect: the step is undecided; one more session with twice the pairs');
    extra = 2;
  }
}

/**
 * A step on the instructions lane: the commit's server counted once per test (a lane-only session: the candidate
 * alone, one run) and judged against the good end's stored counts of the same conditions. Counts repeat to about
 * 0.1%, so one run decides: over the threshold is bad, within it good; a test the good end has no figure for is
 * undecided.
 */
async function instructionStep(
  base: Omit<BisectStepRecord, 'outcome'>,
  candidate: string,
  request: StepRequest,
  deps: BisectStepDeps,
): Promise<BisectStepRecord> {
  const outcome = await untestable(deps, () =>
    runComparison(
      {
        baseline: request.goodTag,
        candidate,
        suite: request.suite,
        rounds: 1,
        design: 'paired',
        purpose: 'bisect',
        instructions: true,
        laneOnly: { sides: ['candidate'], repeats: 1 },
      },
      deps,
    ),
  );
  if (!('sessionId' in outcome)) return { ...base, outcome: 'skip', failureLines: [outcome.reason] };
  const { sessionId } = outcome;
  const lane = await deps.store.instructionLane(sessionId);
  if (lane?.state !== 'done')
    return { ...base, outcome: 'skip', sessionId, failureLines: [lane?.reason ?? 'the instructions lane did not run'] };
  const runs = await deps.store.instructionRuns(sessionId);
  const good = await request.goodFigures!.figures([...new Set(runs.map((r) => r.conditionKey))]);
  const verdicts = judgeAgainstStored(runs, good, deps.settings.instructions.verdicts);
  const judged = verdicts.length === new Set(runs.map((r) => r.test)).size;
  const instructionRatios = Object.fromEntries(verdicts.map((v) => [`${v.test}.t${v.threads}`, v.ratio]));
  return {
    ...base,
    outcome: judged ? stepVerdict(verdicts.map((v) => v.kind)) : 'undecided',
    sessionId,
    instructionRatios,
  };
}

/**
 * The session's outcome, or why the commit could not be tested: its server did not start, its datadir could not be
 * made, or the server died under a run. Anything else (an abort, bad input, the store) ends the bisection.
 */
async function untestable(
  deps: Pick<BisectStepDeps, 'signal' | 'log'>,
  session: () => Promise<CompareOutcome>,
): Promise<CompareOutcome | { reason: string }> {
  try {
    return await session();
  } catch (err) {
    if (deps.signal.aborted || !isServerFailure(err)) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    deps.log.warn({ reason }, 'bisect: the commit could not be tested; skipped');
    return { reason };
  }
}

function isServerFailure(err: unknown): boolean {
  if (err instanceof MeasureFailedError) return err.cause instanceof ServerDiedError;
  return (
    err instanceof ServerStartError ||
    err instanceof ServerDiedError ||
    err instanceof DatadirInitError ||
    err instanceof ServerVersionError
  );
}
