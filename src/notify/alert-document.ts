import {
  comparisonDocument,
  formatRatio,
  formatSignificant,
  formatSlowerEstimate,
  grownFramesTable,
  left,
  makeTable,
  right,
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

/** The email shows this many of the frames that grew most; the page and the report show them all. */
const PROFILE_ROWS = 12;

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

/** The comparison's own title becomes a section: the alert has its title already. */
function asSection(block: Block): Block {
  return block.kind === 'heading' && block.level === 1 ? { ...block, level: 2 } : block;
}

/**
 * The whole body as report blocks: lead, a drift's chained series, the hint of each regressed test, the host
 * fingerprint, then the session's
 * comparison (relative QPS table and chart, verdicts, per-op tables). The text and HTML parts are two layouts of it.
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
  if (dashboardLine && content.dashboardUrl !== undefined) facts.push(`dashboard: ${content.dashboardUrl}`);
  return [
    { kind: 'heading', level: 1, text: title },
    { kind: 'lines', lines: facts },
    ...(content.kind === 'regression' ? chainBlocks(content.chain) : []),
    ...(content.kind === 'regression' ? hintBlocks(rows) : []),
    ...(content.kind === 'regression' ? profileBlocks(content.profile) : []),
    ...comparisonDocument(content.comparison).map(asSection),
  ];
}
