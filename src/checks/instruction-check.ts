import {
  functionGrowth,
  judgeAgainstStored,
  planInstructionEvents,
  type InstructionEventPlan,
  type InstructionVerdictSettings,
} from '../analysis/index.js';
import type { Logger } from '../log/index.js';
import { testKey, type InstructionVerdict, type InstructionsView } from '../model/index.js';
import { renderInstructionsAlert, type InstructionsAlertTest } from '../notify/index.js';
import { builtInstall } from '../session/index.js';
import type {
  CheckStore,
  InstructionCheckInput,
  InstructionRunRecord,
  InstructionStore,
  MessageInput,
  ReleaseRecord,
  ReleaseStore,
} from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import type { AlertSettings } from './alert-messages.js';
import { seriesBase } from './drift.js';

/** What a check does with its session's instructions lane: recorded with the check, emailed, printed. */
export interface InstructionCheckPart {
  input: InstructionCheckInput;
  plan: InstructionEventPlan;
  view: InstructionsView;
  messages: MessageInput[];
}

export interface InstructionCheckRequest {
  upstream: Upstream;
  release: ReleaseRecord;
  baseline: ReleaseRecord;
  /** The check ran directly against the series' base: what it finds grown is drift. */
  againstBase: boolean;
  sessionId: number;
  lane: InstructionsView;
}

export interface InstructionCheckDeps {
  store: ReleaseStore & CheckStore & InstructionStore;
  verdicts: InstructionVerdictSettings;
  alerts: AlertSettings;
  log: Logger;
}

/** How many functions the email lists per test. */
const GROWN_FUNCTIONS = 10;

/**
 * The instructions lane's part of a check (docs/verdicts.md, "Instructions per query"): its verdicts against the
 * check's baseline, the release against the series' base directly from stored figures of the same conditions (no
 * chain of checks: counts do not depend on the host's speed), the events that opens, continues and fixes, and one
 * email for the events it opens. Undefined when the lane did not count (skipped or failed: the QPS lane's verdicts
 * stand alone).
 */
export async function instructionCheck(
  request: InstructionCheckRequest,
  deps: InstructionCheckDeps,
): Promise<InstructionCheckPart | undefined> {
  const { lane } = request;
  if (lane.lane.state !== 'done') return undefined;
  const { store } = deps;
  const runs = await store.instructionRuns(request.sessionId);
  const base = request.againstBase ? undefined : await baseFigures(request, runs, deps);
  const open = await store.listInstructionEvents({ upstream: request.upstream.name, state: 'open' });
  const plan = request.againstBase
    ? planInstructionEvents([], lane.verdicts, open)
    : planInstructionEvents(lane.verdicts, base?.verdicts ?? [], open);
  const baseTag = request.againstBase ? request.baseline : base?.release;
  const input: InstructionCheckInput = {
    verdicts: lane.verdicts,
    openEvents: plan.opened.map((o) => ({
      test: o.verdict.test,
      threads: o.verdict.threads,
      ratio: o.verdict.ratio,
      kind: o.kind,
      baselineReleaseId: o.kind === 'regression' ? request.baseline.id : (baseTag ?? request.baseline).id,
    })),
    fixedEventIds: plan.fixed.map((e) => e.id),
  };
  for (const o of plan.opened)
    deps.log.warn(
      { test: o.verdict.test, threads: o.verdict.threads, ratio: o.verdict.ratio, kind: o.kind },
      `instructions ${o.kind}: ${testKey(o.verdict)} at ${o.verdict.ratio.toFixed(4)} instructions per query`,
    );
  const view: InstructionsView = {
    ...lane,
    ...(base !== undefined ? { againstBase: { tag: base.release.tag, verdicts: base.verdicts } } : {}),
  };
  const messages =
    plan.opened.length === 0 || deps.alerts.emailTo.length === 0
      ? []
      : [await alertMessage(request, plan, base, runs, deps)];
  return { input, plan, view, messages };
}

interface BaseFigures {
  release: ReleaseRecord;
  verdicts: InstructionVerdict[];
  /** The base's runs per condition key, from whichever done session counted its build. */
  runs: Map<string, InstructionRunRecord[]>;
}

/**
 * The release's counts against the series' base's stored counts of the same conditions: undefined when the series
 * has no base older than the release other than the check's own baseline (the session measured that one itself), or
 * the base is not built here.
 */
async function baseFigures(
  request: InstructionCheckRequest,
  runs: readonly InstructionRunRecord[],
  deps: InstructionCheckDeps,
): Promise<BaseFigures | undefined> {
  const { store } = deps;
  const { upstream, release } = request;
  const [releases, checks] = await Promise.all([store.listReleases(upstream.name), store.listChecks(upstream.name)]);
  const base = seriesBase(upstream, releases, checks);
  if (base === undefined || base.id === request.baseline.id || base.versionKey >= release.versionKey) return undefined;
  const build = await builtInstall(store, base, upstream.kind === 'git' ? upstream.buildProfile : undefined);
  if (build === undefined) return undefined;
  const mine = runs.filter((r) => r.role === 'candidate');
  const theirs = new Map<string, InstructionRunRecord[]>();
  for (const key of new Set(mine.map((r) => r.conditionKey)))
    theirs.set(key, await store.findInstructionRuns({ buildKey: build.buildKey, conditionKey: key }));
  return { release: base, verdicts: judgeAgainstStored(mine, theirs, deps.verdicts), runs: theirs };
}

/** The one email of the events a check opened: each test with the functions that grew against what it was judged by. */
async function alertMessage(
  request: InstructionCheckRequest,
  plan: InstructionEventPlan,
  base: BaseFigures | undefined,
  runs: readonly InstructionRunRecord[],
  deps: InstructionCheckDeps,
): Promise<MessageInput> {
  const { upstream, release, baseline, sessionId } = request;
  const own = await deps.store.instructionFunctions(sessionId);
  const table = async (sid: number, role: string, key: string) =>
    (sid === sessionId ? own : await deps.store.instructionFunctions(sid)).find(
      (f) => f.role === role && testKey(f) === key,
    )?.functions ?? [];
  const tests: InstructionsAlertTest[] = [];
  for (const o of plan.opened) {
    const key = testKey(o.verdict);
    const candidate = await table(sessionId, 'candidate', key);
    // A drift is against the base's stored table: the session and side that counted the base's median figure.
    const againstRun =
      o.kind === 'drift' && base !== undefined
        ? base.runs.get(runs.find((r) => r.role === 'candidate' && testKey(r) === key)?.conditionKey ?? '')?.[0]
        : undefined;
    const against =
      againstRun !== undefined
        ? await table(againstRun.sessionId, againstRun.role, key)
        : await table(sessionId, 'baseline', key);
    tests.push({
      kind: o.kind,
      against: o.kind === 'drift' ? (base?.release ?? baseline).tag : baseline.tag,
      verdict: o.verdict,
      grown: functionGrowth(against, candidate, GROWN_FUNCTIONS),
    });
  }
  const lane = request.lane.lane;
  const rendered = renderInstructionsAlert({
    flavor: upstream.flavor,
    upstream: upstream.name,
    tag: release.tag,
    version: release.version,
    counter: `${lane.counter ?? '?'} (${lane.counterVersion ?? '?'})`,
    tests,
  });
  const domain = deps.alerts.emailFrom.split('@')[1] ?? 'localhost';
  return {
    eventKey: `instructions/${upstream.name}/${release.tag}/session-${sessionId}`,
    from: deps.alerts.emailFrom,
    to: [...deps.alerts.emailTo],
    ...rendered,
    messageId: `<qpswatch.instructions.session-${sessionId}@${domain}>`,
  };
}
