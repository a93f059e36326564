import {
  testKey,
  testLabel,
  type FunctionGrowth,
  type InstructionsView,
  type InstructionVerdict,
  type InstructionVerdictKind,
} from '../model/index.js';
import type { Block, HeadlinePart } from './document.js';
import { left, makeTable, right, type CellTone, type Table } from './table.js';

/** Instructions per query, whole, with thousands separators: 42,674. */
export function instructionCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A ratio of counts to a hundredth of a percent: the lane tells 1.0004 from 1. */
export function instructionRatio(value: number): string {
  return value.toFixed(4);
}

function percent(fraction: number): string {
  return `${(100 * fraction).toFixed(2)}%`;
}

/** How a lane verdict reads at a glance: unclear (the repeats straddle the threshold) in the unstable colour. */
export const INSTRUCTION_TONES: Readonly<Record<InstructionVerdictKind, CellTone>> = {
  regression: 'regression',
  improvement: 'improvement',
  unclear: 'unstable',
  ok: 'ok',
};

/** The order a lane headline names its kinds in, with their words: what needs a person first. */
const LANE_HEADLINE: ReadonlyArray<[InstructionVerdictKind, string, string]> = [
  ['regression', 'regression', 'regressions'],
  ['unclear', 'unclear', 'unclear'],
  ['improvement', 'improvement', 'improvements'],
  ['ok', 'ok', 'ok'],
];

/** "1 regression, 1 unclear, 6 ok" over the lane's verdicts, each count in its tone; undefined for none. */
export function laneHeadline(
  verdicts: readonly InstructionVerdict[],
): Extract<Block, { kind: 'headline' }> | undefined {
  const parts: HeadlinePart[] = LANE_HEADLINE.flatMap(([kind, one, many]) => {
    const n = verdicts.filter((v) => v.kind === kind).length;
    return n === 0 ? [] : [{ tone: INSTRUCTION_TONES[kind], text: `${n} ${n === 1 ? one : many}` }];
  });
  if (parts.length === 0) return undefined;
  return { kind: 'headline', text: parts.map((p) => p.text).join(', '), parts };
}

/**
 * One row per test: both sides' medians, C/B with the spread's bounds, each side's spread and the verdict. C/B and its
 * bounds are in the verdict's colour unless ok; the verdict's own cell always.
 */
export function instructionsTable(verdicts: readonly InstructionVerdict[]): Table {
  const tones = verdicts.map((v) => {
    const tone = v.kind === 'ok' ? undefined : INSTRUCTION_TONES[v.kind];
    return [undefined, undefined, undefined, tone, tone, undefined, undefined, INSTRUCTION_TONES[v.kind]];
  });
  return makeTable(
    [
      left('test'),
      right('B instr/q'),
      right('C instr/q'),
      right('C/B'),
      right('bounds'),
      right('spread B'),
      right('spread C'),
      left('verdict'),
    ],
    verdicts.map((v) => [
      testLabel(v),
      instructionCount(v.baseline.median),
      instructionCount(v.candidate.median),
      instructionRatio(v.ratio),
      `${instructionRatio(v.low)}-${instructionRatio(v.high)}`,
      percent(v.baseline.spread),
      percent(v.candidate.spread),
      verdictCell(v),
    ]),
    tones,
  );
}

/** The verdict with the limit it crossed: C/B over the threshold, or under its inverse for an improvement. */
function verdictCell(v: InstructionVerdict): string {
  if (v.kind === 'regression') return `regression (> ${v.threshold})`;
  if (v.kind === 'improvement') return `improvement (< ${instructionRatio(1 / v.threshold)})`;
  return v.kind;
}

/** How much of a symbol name a table shows: C++ names with their templates run to hundreds of characters. */
const SHOWN_NAME = 72;

/** A function's name as a table cell: the first SHOWN_NAME code points, the cut marked (json and csv keep it whole). */
export function functionCell(name: string): string {
  const chars = [...name];
  return chars.length <= SHOWN_NAME ? name : `${chars.slice(0, SHOWN_NAME - 1).join('')}…`;
}

function signed(value: number): string {
  const whole = Math.round(value);
  return `${whole > 0 ? '+' : ''}${instructionCount(whole)}`;
}

function signedPercent(fraction: number): string {
  return `${fraction > 0 ? '+' : ''}${(100 * fraction).toFixed(2)}%`;
}

/**
 * Where it grew: one row per function, top growth first, with both sides' inclusive and self instructions per query
 * and the growth; "of test" is the inclusive growth as a share of the test's instructions per query on B (`perQuery`),
 * red where that function alone passes the threshold (blue where it alone shrank past it).
 */
export function functionGrowthTable(grown: readonly FunctionGrowth[], perQuery: number, threshold: number): Table {
  const margin = threshold - 1;
  const share = (f: FunctionGrowth): number => (perQuery > 0 ? f.inclusiveGrowth / perQuery : 0);
  const toneOf = (f: FunctionGrowth): CellTone | undefined =>
    share(f) >= margin ? 'regression' : share(f) <= -margin ? 'improvement' : undefined;
  return makeTable(
    [
      left('function'),
      left('object'),
      right('B incl/q'),
      right('C incl/q'),
      right('growth'),
      right('of test'),
      right('B self/q'),
      right('C self/q'),
      right('self growth'),
    ],
    grown.map((f) => {
      const count = (side: 'baseline' | 'candidate', value: number): string =>
        f.unlisted === side ? UNLISTED : instructionCount(value);
      return [
        functionCell(f.name),
        functionCell(f.object),
        count('baseline', f.baselineInclusive),
        count('candidate', f.candidateInclusive),
        signed(f.inclusiveGrowth),
        signedPercent(share(f)),
        count('baseline', f.baselineExclusive),
        count('candidate', f.candidateExclusive),
        signed(f.exclusiveGrowth),
      ];
    }),
    grown.map((f) => [
      undefined,
      undefined,
      undefined,
      undefined,
      toneOf(f),
      toneOf(f),
      undefined,
      undefined,
      undefined,
    ]),
  );
}

/** A side's cell for a function its stored table does not list (counted as 0 in the growth). */
const UNLISTED = '-';

/** Said under a table that has an UNLISTED cell. */
export const UNLISTED_NOTE =
  "- : not in that side's stored table (under 1 in 10,000 of its instructions, or not called); counted as 0";

/** One test's functions that grew, under a heading that names the test and what it was compared with. */
export function functionGrowthBlocks(
  verdict: InstructionVerdict,
  grown: readonly FunctionGrowth[] | undefined,
  against?: string,
): Block[] {
  const heading: Block = {
    kind: 'heading',
    level: 2,
    text:
      `Functions that grew: ${testLabel(verdict)}` +
      (against !== undefined ? ` against ${against}` : `, C/B ${instructionRatio(verdict.ratio)}`),
  };
  if (grown === undefined || grown.length === 0)
    return [heading, { kind: 'lines', lines: ['(no function table: the counter names no functions)'] }];
  const table: Block = { kind: 'table', table: functionGrowthTable(grown, verdict.baseline.median, verdict.threshold) };
  const note: Block[] = grown.some((f) => f.unlisted !== undefined) ? [{ kind: 'lines', lines: [UNLISTED_NOTE] }] : [];
  return [heading, table, ...note];
}

/** The lane's line: what counted, how often, or why there are no counts. */
export function laneLine(view: InstructionsView): string {
  const { lane } = view;
  if (lane.state === 'skipped') return `not counted: ${lane.reason ?? 'skipped'}`;
  const counter = `${lane.counter ?? '?'} (${lane.counterVersion ?? '?'})`;
  const counted = `${counter}, ${lane.runs} runs in ${Math.round(lane.seconds)} s`;
  if (lane.state === 'failed') return `failed after ${lane.runs} runs: ${lane.reason ?? 'no reason kept'} (${counted})`;
  return counted;
}

/**
 * Where each test grew, for the tests a person looks at: the regressions and the unclear ones (json and csv carry
 * every test's table). Nothing when the view has no tables.
 */
function grownBlocks(view: InstructionsView): Block[] {
  if (view.grown === undefined) return [];
  const grown = new Map(view.grown.map((g) => [testKey(g), g.functions]));
  const shown = view.verdicts.filter((v) => v.kind === 'regression' || v.kind === 'unclear');
  const others = view.verdicts.length - shown.length;
  return [
    ...shown.flatMap((v) => functionGrowthBlocks(v, grown.get(testKey(v)) ?? [])),
    ...(others > 0 && view.grown.length > 0
      ? [
          {
            kind: 'lines',
            lines: [
              `Functions that grew in the ${others} other test${others === 1 ? '' : 's'} (ok or fewer instructions): ` +
                'in --format json and csv.',
            ],
          } as const,
        ]
      : []),
  ];
}

/**
 * The instructions lane of a session as blocks: its heading (`suffix`: the session's memory setting), the headline
 * of its verdicts, its line, the table of its 1-thread tests, for a check the release against the series' base from
 * stored figures, and the functions that grew.
 */
export function instructionsBlocks(view: InstructionsView, suffix = ''): Block[] {
  const headline = laneHeadline(view.verdicts);
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: `Instructions per query (1-thread tests)${suffix}` },
    ...(headline !== undefined ? [headline] : []),
    { kind: 'lines', lines: [laneLine(view)] },
  ];
  if (view.verdicts.length > 0) blocks.push({ kind: 'table', table: instructionsTable(view.verdicts) });
  if (view.againstBase !== undefined) {
    blocks.push({ kind: 'lines', lines: [`Against the series' base ${view.againstBase.tag}, from stored figures:`] });
    blocks.push(
      view.againstBase.verdicts.length > 0
        ? { kind: 'table', table: instructionsTable(view.againstBase.verdicts) }
        : { kind: 'lines', lines: ['(no stored figure of the base under the same conditions)'] },
    );
  }
  return [...blocks, ...grownBlocks(view)];
}
