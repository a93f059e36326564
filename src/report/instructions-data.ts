import {
  testKey,
  type FunctionGrowth,
  type InstructionSide,
  type InstructionsView,
  type InstructionVerdict,
  type SampleRole,
  type TestId,
} from '../model/index.js';

/**
 * The instructions lane in the machine formats: the JSON of a comparison carries it whole, in a stable key order; the
 * CSV gives each test-and-side record the lane's figures and adds the functions that grew as records of their own.
 * Numbers keep full precision; names are whole (the tables cut them).
 */

function orderedSide(s: InstructionSide): InstructionSide {
  return { perQuery: [...s.perQuery], median: s.median, spread: s.spread };
}

function orderedVerdict(v: InstructionVerdict): InstructionVerdict {
  return {
    test: v.test,
    threads: v.threads,
    kind: v.kind,
    ratio: v.ratio,
    low: v.low,
    high: v.high,
    threshold: v.threshold,
    baseline: orderedSide(v.baseline),
    candidate: orderedSide(v.candidate),
  };
}

function orderedGrowth(f: FunctionGrowth): FunctionGrowth {
  return {
    name: f.name,
    object: f.object,
    baselineInclusive: f.baselineInclusive,
    candidateInclusive: f.candidateInclusive,
    baselineExclusive: f.baselineExclusive,
    candidateExclusive: f.candidateExclusive,
    inclusiveGrowth: f.inclusiveGrowth,
    exclusiveGrowth: f.exclusiveGrowth,
    ...(f.unlisted !== undefined ? { unlisted: f.unlisted } : {}),
  };
}

/** The lane rebuilt field by field, so the key order is the interfaces' whatever order the input had. */
export function orderedInstructions(view: InstructionsView): InstructionsView {
  const { lane } = view;
  return {
    lane: {
      state: lane.state,
      ...(lane.reason !== undefined ? { reason: lane.reason } : {}),
      ...(lane.counter !== undefined ? { counter: lane.counter } : {}),
      ...(lane.counterVersion !== undefined ? { counterVersion: lane.counterVersion } : {}),
      runs: lane.runs,
      seconds: lane.seconds,
    },
    verdicts: view.verdicts.map(orderedVerdict),
    ...(view.againstBase !== undefined
      ? { againstBase: { tag: view.againstBase.tag, verdicts: view.againstBase.verdicts.map(orderedVerdict) } }
      : {}),
    ...(view.grown !== undefined
      ? {
          grown: view.grown.map((g) => ({
            test: g.test,
            threads: g.threads,
            functions: g.functions.map(orderedGrowth),
          })),
        }
      : {}),
  };
}

/** The lane's columns of a comparison's CSV, after the QPS lane's: each test-and-side record, then function records. */
export const INSTRUCTIONS_CSV_COLUMNS = [
  'instructions_per_query',
  'instructions_spread',
  'instructions_relative',
  'instructions_low',
  'instructions_high',
  'instructions_verdict',
  'instructions_threshold',
  'function',
  'object',
  'inclusive_per_query',
  'exclusive_per_query',
  'inclusive_growth',
  'exclusive_growth',
] as const;

type Cell = string | number;

const FUNCTION_CELLS_EMPTY: Cell[] = ['', '', '', '', '', ''];

/**
 * The lane's cells of one test-and-side record: the side's median instructions per query and its repeats' spread,
 * then C/B with its bounds, verdict and threshold (on both records, as relative_qps is: 1, 1, 1 on the baseline's);
 * empty where the lane has no verdict for the test. The function columns are empty: those are the function records'.
 */
export function instructionsCells(view: InstructionsView | undefined, test: TestId, role: SampleRole): Cell[] {
  const v = view?.verdicts.find((x) => testKey(x) === testKey(test));
  if (v === undefined) return ['', '', '', '', '', '', '', ...FUNCTION_CELLS_EMPTY];
  const side = v[role];
  const relative: Cell[] = role === 'baseline' ? [1, 1, 1] : [v.ratio, v.low, v.high];
  return [side.median, side.spread, ...relative, v.kind, v.threshold, ...FUNCTION_CELLS_EMPTY];
}

/**
 * The functions that grew as records: per test (in the lane's order) and function (top growth first), one record per
 * side with that side's inclusive and self instructions per query and the growth from B to C on both. `lead` gives
 * the record's cells before the lane's (suite, test, threads, role, target, ...: the QPS figures empty).
 */
export function functionRecords(
  view: InstructionsView | undefined,
  lead: (test: TestId, role: SampleRole) => Cell[],
): Cell[][] {
  if (view?.grown === undefined) return [];
  return view.grown.flatMap((g) =>
    g.functions.flatMap((f) =>
      (['baseline', 'candidate'] as const).map((role) => [
        ...lead(g, role),
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        f.name,
        f.object,
        // A side whose stored table does not list the function has no figure (its growth counts it as 0).
        f.unlisted === role ? '' : role === 'baseline' ? f.baselineInclusive : f.candidateInclusive,
        f.unlisted === role ? '' : role === 'baseline' ? f.baselineExclusive : f.candidateExclusive,
        f.inclusiveGrowth,
        f.exclusiveGrowth,
      ]),
    ),
  );
}
