import type { Logger } from '../log/index.js';
import type { ProfilingMode, Verdict } from '../model/index.js';
import type { AlertProfile } from '../notify/index.js';
import { findProgram, NoProfileError, profilersOf } from '../profile/index.js';
import {
  profileReport,
  runProfile,
  writeProfileFiles,
  type ProfileDeps,
  type ProfileOutcome,
  type ProfileRequest,
} from '../session/index.js';
import type { Suite } from '../suite/index.js';

/** How a check profiles the regressions it opens: the profiling and profile_seconds options. */
export interface EventProfileSettings {
  profiling: ProfilingMode;
  profileSeconds: number;
  stateDir: string;
}

export interface EventProfileDeps {
  settings: EventProfileSettings;
  log: Logger;
  /** Reruns the test on both servers under the profiler and stores the profile (runProfile, or a fake in tests). */
  takeProfile: (request: ProfileRequest) => Promise<ProfileOutcome>;
  /** Writes the flame graph and the page; returns their paths. */
  writeFiles?: typeof writeProfileFiles;
}

export interface EventProfileInput {
  /** The regressions the check opens: the worst of them is profiled. */
  opened: readonly Verdict[];
  suite: Suite;
  baseline: string;
  candidate: string;
  sessionId: number;
}

/** The regression a check profiles: the one with the lowest relative QPS. */
export function worstOpened(opened: readonly Verdict[]): Verdict | undefined {
  return opened.reduce<Verdict | undefined>(
    (a, b) => (a === undefined || b.relativeQps < a.relativeQps ? b : a),
    undefined,
  );
}

/**
 * The profile a check attaches to the regression events it opens: its worst regressed test (one test, to bound the
 * time) rerun on both servers under the sampling profiler, stored with the check's session, its flame graph and page
 * written. Undefined when the check opened none or profiling is off. A profile that cannot be taken never fails the
 * check: the email then says in one line why there is none.
 */
export async function profileOpenedEvents(
  input: EventProfileInput,
  deps: EventProfileDeps,
): Promise<AlertProfile | undefined> {
  const { settings, log } = deps;
  const worst = worstOpened(input.opened);
  if (worst === undefined || settings.profiling === 'off') return undefined;
  const test = input.suite.tests.find((t) => t.name === worst.test);
  if (test === undefined) return { kind: 'none', reason: `test ${worst.test} is not in suite ${input.suite.name}` };
  const label = `${worst.test}.t${worst.threads}`;
  log.info({ test: label, seconds: settings.profileSeconds }, `profiling the worst regressed test ${label}`);
  try {
    const outcome = await deps.takeProfile({
      baseline: input.baseline,
      candidate: input.candidate,
      suite: input.suite,
      test,
      threads: worst.threads,
      seconds: settings.profileSeconds,
      mode: settings.profiling,
      sessionId: input.sessionId,
    });
    const report = profileReport(outcome, input.baseline, input.candidate, label);
    const files = await (deps.writeFiles ?? writeProfileFiles)(settings.stateDir, outcome.id, report);
    return {
      kind: 'taken',
      id: outcome.id,
      test: worst.test,
      threads: worst.threads,
      baseline: { name: input.baseline, samples: outcome.baseline.samples, tool: outcome.baseline.tool },
      candidate: { name: input.candidate, samples: outcome.candidate.samples, tool: outcome.candidate.tool },
      grown: outcome.grown,
      flameGraph: files.svg,
      page: files.html,
      sessionId: input.sessionId,
    };
  } catch (err) {
    const reason = noProfileReason(err);
    log.warn({ test: label, reason }, `no profile of ${label}: the check goes on without one`);
    return { kind: 'none', reason };
  }
}

function noProfileReason(err: unknown): string {
  if (err instanceof NoProfileError) return err.reasons.join('; ');
  return `profiling failed: ${err instanceof Error ? err.message : String(err)}`;
}

/**
 * The real profiler of a check: first asks whether the mode has any profiler installed, so a host without perf or
 * gdb says so at once instead of loading and starting both servers for nothing; then runProfile.
 */
export function checkProfiler(deps: ProfileDeps, pathEnv?: string): EventProfileDeps['takeProfile'] {
  return async (request) => {
    const tools = profilersOf(request.mode);
    if (!tools.some((tool) => findProgram(tool, pathEnv) !== undefined))
      throw new NoProfileError(tools.map((tool) => `${tool} is not installed`));
    return runProfile(request, deps);
  };
}
