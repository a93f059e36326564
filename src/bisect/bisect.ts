import { afterStep, bisectBuildBound, conclude, nextIndex, startSearch, type BisectSearch } from '../analysis/index.js';
import { applyPrune } from '../compile/index.js';
import type {
  BisectionInput,
  BisectionOutcome,
  BisectionRecord,
  BisectionStore,
  BisectStepRecord,
  CheckStore,
  InstructionRunRecord,
  MessageInput,
  ReleaseRecord,
} from '../store/index.js';
import { builtInstall, runComparison } from '../session/index.js';
import type { CommitEntry } from '../upstream/index.js';
import { bisectRange } from './bisect-range.js';
import { runBisectStep, type BisectStepDeps, type GoodFigures, type StepRequest } from './bisect-step.js';
import type { CommitBuildOutcome } from '../releases/index.js';
import { ReleaseNotBuiltError } from '../checks/index.js';

export interface BisectRequest extends Omit<
  StepRequest,
  'goodTag' | 'badTag' | 'badVersion' | 'buildProfile' | 'goodFigures'
> {
  release: ReleaseRecord;
  good: ReleaseRecord;
  /** The regressed tests the suite was narrowed to. */
  tests: string[];
  /** Follow first parents only (the default), or every parent. */
  firstParent: boolean;
  /** bisect_max_builds and bisect_max_hours. */
  maxBuilds: number;
  maxHours: number;
}

export interface BisectRunDeps extends BisectStepDeps {
  /** Told of each step as it ends, with its number (1-based) and the range's size. */
  onStep?: (step: BisectStepRecord, number: number, count: number) => void;
}

export interface BisectDeps extends BisectRunDeps {
  store: BisectStepDeps['store'] & CheckStore & BisectionStore;
}

export interface BisectResult {
  record: BisectionRecord;
  /** The commits of the range, oldest first (the tag's last). */
  commits: readonly CommitEntry[];
  /** ceil(log2(n)) + 2. */
  bound: number;
  /** Instructions lane: the counted runs per test (the steps counted, and the good end when it had to be). */
  countedRuns?: number;
  /** Install folders of the steps' builds, removed when the bisection ended. */
  pruned: readonly string[];
}

/** A bisection walked to its end but not yet stored: what to store, and the range it searched. */
export interface BisectRun extends Omit<BisectResult, 'record'> {
  input: BisectionInput;
}

/**
 * Finds the first commit after the good release at which the regressed tests regress: builds midpoints of the
 * range with the release's build profile, runs the tests against the good release at each, skips a commit that does
 * not build, and stops at the first bad commit, an undecided step, or the budget. The result is stored; the builds
 * it made are pruned (never a release's: a commit build has no row in the builds table).
 */
export async function bisectRelease(
  request: BisectRequest,
  deps: BisectDeps,
  /** The follow-up email (`bisect --email`), queued with the result in one transaction. */
  message?: (input: BisectionInput) => MessageInput | undefined,
): Promise<BisectResult> {
  const { input, ...run } = await runBisection(request, deps);
  return { record: await deps.store.recordBisection(input, message?.(input)), ...run };
}

/**
 * The walk of bisectRelease without storing it, so a caller can store it with more (the event that started it and
 * its follow-up email, in one transaction). The steps' builds are pruned either way.
 */
export async function runBisection(request: BisectRequest, deps: BisectRunDeps): Promise<BisectRun> {
  const startedAt = new Date();
  const { release, good } = request;
  const commits = await bisectRange(
    deps.upstream,
    { good, bad: release, firstParent: request.firstParent },
    { cacheDir: deps.buildSettings.cacheDir, signal: deps.signal, log: deps.log },
  );
  const stepRequest: StepRequest = {
    ...request,
    goodTag: good.tag,
    badTag: release.tag,
    badVersion: release.version,
    buildProfile: deps.upstream.buildProfile,
    ...(request.lane === 'instructions' ? { goodFigures: goodFiguresOf(request, deps) } : {}),
  };
  const builds: CommitBuildOutcome[] = [];
  try {
    const walk = await walkRange(commits, stepRequest, request, deps, builds, startedAt);
    const input = bisectionInput(request, commits, walk, builds.length, startedAt, deps.upstream.buildProfile);
    const counted = walk.steps.filter((s) => s.instructionRatios !== undefined).length;
    return {
      input,
      commits,
      bound: bisectBuildBound(commits.length),
      pruned: await pruneSteps(builds),
      ...(stepRequest.goodFigures !== undefined
        ? { countedRuns: counted + (stepRequest.goodFigures.counted ? 1 : 0) }
        : {}),
    };
  } catch (err) {
    await pruneSteps(builds);
    throw err;
  }
}

interface Walk {
  search: BisectSearch;
  steps: BisectStepRecord[];
  stopped?: 'undecided' | 'budget';
}

async function walkRange(
  commits: readonly CommitEntry[],
  stepRequest: StepRequest,
  request: BisectRequest,
  deps: BisectRunDeps,
  builds: CommitBuildOutcome[],
  startedAt: Date,
): Promise<Walk> {
  const deadline = startedAt.getTime() + request.maxHours * 3_600_000;
  let search = startSearch(commits.length);
  const steps: BisectStepRecord[] = [];
  for (let index = nextIndex(search); index !== undefined; index = nextIndex(search)) {
    if (builds.length >= request.maxBuilds || Date.now() >= deadline) return { search, steps, stopped: 'budget' };
    const { step } = await runBisectStep(commits[index]!, stepRequest, deps, (build) => builds.push(build));
    steps.push(step);
    deps.onStep?.(step, steps.length, commits.length);
    if (step.outcome === 'undecided') return { search, steps, stopped: 'undecided' };
    search = afterStep(search, index, step.outcome);
  }
  return { search, steps };
}

function bisectionInput(
  request: BisectRequest,
  commits: readonly CommitEntry[],
  walk: Walk,
  builds: number,
  startedAt: Date,
  buildProfile: string,
): BisectionInput {
  const conclusion = conclude(walk.search);
  const left = commits.slice(walk.search.good + 1, walk.search.bad + 1).map((c) => c.commit);
  const outcome: BisectionOutcome = walk.stopped ?? conclusion.kind;
  const first = conclusion.kind === 'found' && walk.stopped === undefined ? commits[conclusion.index] : undefined;
  return {
    releaseId: request.release.id,
    goodReleaseId: request.good.id,
    buildProfile,
    tests: request.tests,
    commitCount: commits.length,
    outcome,
    ...(first !== undefined
      ? { firstBad: { commit: first.commit, subject: first.subject, author: first.author } }
      : {}),
    candidates:
      outcome === 'ambiguous' && conclusion.kind === 'ambiguous'
        ? conclusion.indices.map((i) => commits[i]!.commit)
        : outcome === 'found'
          ? []
          : left,
    steps: walk.steps,
    builds,
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
  };
}

/**
 * The good release's instruction counts under a step's conditions: the stored runs of its build (the check that
 * found the regression counted it with the same settings), else one lane-only session of the good release itself,
 * counted once for the whole bisection and then read back like the stored ones.
 */
function goodFiguresOf(request: BisectRequest, deps: BisectRunDeps): GoodFigures {
  const good = {
    counted: false,
    async figures(keys: readonly string[]): Promise<Map<string, InstructionRunRecord[]>> {
      const build = await builtInstall(
        deps.store,
        request.good,
        deps.upstream.buildProfile,
        deps.buildSettings.stateDir,
      );
      if (build === undefined) throw new ReleaseNotBuiltError(request.good.tag);
      const find = async (): Promise<Map<string, InstructionRunRecord[]>> =>
        new Map(
          await Promise.all(
            keys.map(
              async (conditionKey) =>
                [
                  conditionKey,
                  await deps.store.findInstructionRuns({ buildKey: build.buildKey, conditionKey }),
                ] as const,
            ),
          ),
        );
      const found = await find();
      if (good.counted || [...found.values()].every((runs) => runs.length > 0)) return found;
      deps.log.info(
        { good: request.good.tag },
        `bisect: counting ${request.good.tag} once: no stored instruction counts of it under these conditions`,
      );
      good.counted = true;
      await runComparison(
        {
          baseline: request.good.tag,
          candidate: request.good.tag,
          suite: request.suite,
          rounds: 1,
          design: 'paired',
          purpose: 'bisect',
          instructions: true,
          laneOnly: { sides: ['candidate'], repeats: 1 },
        },
        deps,
      );
      return find();
    },
  };
  return good;
}

/** Removes the installs the steps built: commit builds only, which no release's build row points to. */
async function pruneSteps(builds: readonly CommitBuildOutcome[]): Promise<string[]> {
  const made = builds.filter((b) => b.status === 'built');
  return applyPrune({
    keep: [],
    remove: made.map((b) => ({ key: b.key, version: '0', installDir: b.installDir, lastUsedAt: 0 })),
  });
}
