import {
  comparisonHeadline,
  formatInterval,
  formatRatio,
  formatSignificant,
  formatSlowerEstimate,
  grownFramesTable,
  left,
  makeTable,
  plansBlocks,
  right,
  variablesBlocks,
  WAITING_TEXT,
  type Block,
  type Table,
} from '../report/index.js';
import { isWaitingHint, testLabel, type TestRow } from '../model/index.js';
import type { AlertContent, AlertProfile } from './alert-content.js';

function release(version: string, tag: string): string {
  return `${version} (tag ${tag})`;
}

/** The first sentence a person reads: what happened to which release, against which, in which tests. */
export function leadSentence(content: AlertContent, rows: readonly TestRow[]): string {
  const judged = release(content.version, content.tag);
  const good = release(content.comparedWith.version, content.comparedWith.tag);
  const count = rows.length === 1 ? '1 test' : `${rows.length} tests`;
  const labels = rows.map((row) => `${testLabel(row)} ${formatRatio(row.relativeQps)}`).join(', ');
  if (content.against === 'base') {
    return content.kind === 'regression'
      ? `${content.flavor} ${judged} of series ${content.upstream} has drifted: ` +
          `a paired session directly against the series' base release ${good} ` +
          `found it slower in ${count}: ${labels}.`
      : `${content.flavor} ${judged} of series ${content.upstream} is back to ` +
          `the speed of the series' base release ${good}, in a paired session ` +
          `directly against it, in ${count} that had regressed: ${labels}.`;
  }
  return content.kind === 'regression'
    ? `${content.flavor} ${judged} of series ${content.upstream} is slower ` +
        `than the last good release ${good} in ${count}: ${labels}.`
    : `${content.flavor} ${judged} of series ${content.upstream} is back to ` +
        `the speed of the last good release ${good} in ${count} that had ` +
        `regressed: ${labels}.`;
}

/** A drift's chained series: per test and release, relative QPS against the base with its interval and checks. */
export function chainTable(chain: NonNullable<AlertContent['chain']>): Table {
  const cells = chain.flatMap((t) =>
    t.points.map((p) => [
      testLabel(t),
      p.tag,
      formatRatio(p.relativeQps),
      `${formatRatio(p.low)}-${formatRatio(p.high)}`,
      String(p.steps),
    ]),
  );
  return makeTable([left('test'), left('release'), right('C/base'), right('interval'), right('checks')], cells);
}

function chainBlocks(chain: AlertContent['chain']): Block[] {
  if (chain === undefined || chain.length === 0) return [];
  return [
    { kind: 'heading', level: 2, text: 'The chain that raised it: relative QPS against the base through the checks' },
    { kind: 'table', table: chainTable(chain) },
  ];
}

/**
 * The session's slower tests, which raise no alert of their own (docs/verdicts.md) but are a real drop: named after
 * the lead with their estimate and interval, e.g. "point-query.t1 0.962 (0.931-0.987)"; null when there are none.
 */
export function slowerSentence(rows: readonly TestRow[]): string | null {
  const slower = rows.flatMap((row) =>
    row.verdict?.kind === 'slower'
      ? [`${testLabel(row)} ${formatSlowerEstimate(row.relativeQps, row.verdict.low, row.verdict.high)}`]
      : [],
  );
  return slower.length === 0
    ? null
    : `Also significantly slower, but not shown past the threshold (no alert of their own): ${slower.join(', ')}.`;
}

/** Per-op figures and database counters that grew in C, one row each, with both values: the "why" of a regression. */
export function hintTable(rows: readonly TestRow[]): Table {
  const cells = rows.flatMap((row) =>
    row.verdict?.kind === 'regression'
      ? row.verdict.hint.map((h) => [
          testLabel(row),
          h.metric,
          formatSignificant(h.baseline),
          formatSignificant(h.candidate),
          h.ratio === null ? 'from 0' : `x${formatRatio(h.ratio)}`,
        ])
      : [],
  );
  return makeTable([left('test'), left('grew'), right('B'), right('C'), right('C/B')], cells);
}

function hintBlocks(rows: readonly TestRow[]): Block[] {
  const table = hintTable(rows);
  const heading: Block = { kind: 'heading', level: 2, text: 'What grew per operation' };
  if (table.rows.length === 0)
    return [
      heading,
      { kind: 'lines', lines: ['No per-op figure grew: the host did the same work per operation, only slower.'] },
    ];
  const waitingOnly = rows
    .filter((row) => row.verdict?.kind === 'regression' && row.verdict.hint.length > 0)
    .every((row) => row.verdict!.hint.every(isWaitingHint));
  const why = `No resource per operation grew, but the time off CPU did: ${WAITING_TEXT}.`;
  return waitingOnly
    ? [heading, { kind: 'lines', lines: [why] }, { kind: 'table', table }]
    : [heading, { kind: 'table', table }];
}

/** The email shows this many of the server variables, and of the plans, that differ; the report shows them all. */
const SIDE_ROWS = 15;

/** What differs between what the sides ran with: a new default, an option the profile sets, a plan. */
function sideBlocks(comparison: AlertContent['comparison']): Block[] {
  const more = { limit: SIDE_ROWS, where: `qpswatch show ${comparison.sessionId}` };
  return [...variablesBlocks(comparison.variables, more), ...plansBlocks(comparison.plans, more)];
}

/** The email shows this many of the frames that grew most; the page and the report show them all. */
const PROFILE_ROWS = 8;

/** A regression's differential profile: the sides, the frames that grew most, and where the flame graph is. */
export function profileBlocks(profile: AlertProfile | undefined): Block[] {
  if (profile === undefined) return [];
  const heading: Block = { kind: 'heading', level: 2, text: 'Where the time went: differential profile' };
  if (profile.kind === 'none') return [heading, { kind: 'lines', lines: [`No profile: ${profile.reason}`] }];
  const side = (s: { name: string; samples: number; tool: string }): string =>
    `${s.name}: ${s.samples} samples (${s.tool})`;
  const facts = [
    `Profile ${profile.id} of ${testLabel(profile)}, the worst regressed test, rerun on each server: ` +
      `B ${side(profile.baseline)}; C ${side(profile.candidate)}.`,
    `flame graph: ${profile.flameGraph}`,
    `page with table and flame graph: ${profile.page}`,
    `HTML report with the flame graph: qpswatch show ${profile.sessionId} --format html`,
  ];
  const rows = profile.grown.slice(0, PROFILE_ROWS);
  const body: Block =
    rows.length > 0
      ? { kind: 'table', table: grownFramesTable(rows) }
      : { kind: 'lines', lines: ['No function took a larger share of the samples in C than in B.'] };
  return [heading, { kind: 'lines', lines: facts }, body];
}

/**
 * The tests that moved: every test whose verdict is not ok or unstable, and the event's own tests, with C/B, its
 * interval and the verdict (toned in HTML). The session's other tests are in the full report.
 */
export function movedTable(content: AlertContent, rows: readonly TestRow[]): Table {
  const own = new Set(rows.map((r) => testLabel(r)));
  const moved = content.comparison.tests.filter(
    (row) => own.has(testLabel(row)) || (row.verdict !== undefined && !['ok', 'unstable'].includes(row.verdict.kind)),
  );
  const cells = moved.map((row) => [
    testLabel(row),
    formatRatio(row.relativeQps),
    row.verdict === undefined ? '-' : formatInterval(row.verdict.low, row.verdict.high),
    row.verdict?.kind ?? '-',
  ]);
  const tones = moved.map((row) => [undefined, row.verdict?.kind, undefined, row.verdict?.kind]);
  return makeTable([left('test'), right('C/B'), right('interval'), left('verdict')], cells, tones);
}

/** Where the whole comparison is: the command that prints it as a page, and the dashboard when configured. */
function fullReportLines(content: AlertContent, dashboardLine: boolean): string[] {
  const id = content.comparison.sessionId;
  return [
    `The full report (every test, its verdict, the per-op and counter tables): qpswatch show ${id} --format html`,
    ...(dashboardLine && content.dashboardUrl !== undefined ? [`dashboard: ${content.dashboardUrl}`] : []),
  ];
}

/**
 * The whole body as report blocks, short enough to read in the mail client: the lead and the verdicts' headline, the
 * tests that moved with their intervals, a drift's chained series, what grew per operation, the profile's top frames,
 * and where the full report is (qpswatch show ID --format html). The text and HTML parts are two layouts of it.
 */
export function alertDocument(
  content: AlertContent,
  rows: readonly TestRow[],
  title: string,
  dashboardLine: boolean,
): Block[] {
  const slower = slowerSentence(content.comparison.tests);
  const facts = [
    leadSentence(content, rows),
    ...(slower !== null ? [slower] : []),
    `host fingerprint: ${content.fingerprintId}`,
  ];
  const headline = comparisonHeadline(content.comparison.tests);
  return [
    { kind: 'heading', level: 1, text: title },
    ...(headline !== undefined ? [headline] : []),
    { kind: 'lines', lines: facts },
    { kind: 'heading', level: 2, text: 'Tests that moved' },
    { kind: 'table', table: movedTable(content, rows) },
    ...(content.kind === 'regression' ? chainBlocks(content.chain) : []),
    ...(content.kind === 'regression' ? hintBlocks(rows) : []),
    ...(content.kind === 'regression' ? profileBlocks(content.profile) : []),
    // A setting or a plan that changed between the releases can be the cause.
    ...(content.kind === 'regression' ? sideBlocks(content.comparison) : []),
    { kind: 'heading', level: 2, text: 'The full report' },
    { kind: 'lines', lines: fullReportLines(content, dashboardLine) },
  ];
}
