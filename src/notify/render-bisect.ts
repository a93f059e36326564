import { left, makeTable, renderHtmlDocument, renderTextDocument, right, type Block } from '../report/index.js';
import type { RenderedMessage } from './alert-content.js';
import { headerText } from './alert-subject.js';
import { inertLine } from './render-failure.js';

/** One step of a bisection as the follow-up email shows it. */
export interface BisectStepContent {
  commit: string;
  subject: string;
  outcome: 'good' | 'bad' | 'skip' | 'undecided';
  /** relative QPS of the regressed tests at this commit (commit / good release), by test */
  relativeQps?: Readonly<Record<string, number>>;
}

/** A bisection that followed a regression email: bisect/ hands it to rendering as this. */
export interface BisectContent {
  flavor: string;
  upstream: string;
  tag: string;
  goodTag: string;
  tests: readonly string[];
  /** found, ambiguous, undecided, budget or failed */
  outcome: string;
  firstBad?: { commit: string; subject: string; author: string };
  /** the commits the first bad one is still among (no first bad commit named) */
  candidates: number;
  commitCount: number;
  builds: number;
  steps: readonly BisectStepContent[];
  /** why it failed (outcome failed) */
  error?: string;
}

const short = (commit: string): string => commit.slice(0, 7);

/** e.g. "qpswatch: mariadb 10.11.4 bisected: first bad commit abc1234", or "... bisect could not decide". */
export function bisectSubject(content: BisectContent): string {
  const what =
    content.firstBad !== undefined ? `first bad commit ${short(content.firstBad.commit)}` : 'bisect could not decide';
  return headerText(`qpswatch: ${content.flavor} ${content.tag} bisected: ${what}`);
}

/**
 * Subject, text and HTML of the one follow-up email a bisection sends. Subjects and authors are data: the document
 * layouts escape them (HTML entities; control characters as \xNN in the text part), and each line is made inert.
 */
export function renderBisectNotice(content: BisectContent): RenderedMessage {
  const subject = bisectSubject(content);
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: subject },
    { kind: 'lines', lines: summaryLines(content).map(inertLine) },
    { kind: 'heading', level: 2, text: 'Steps' },
    content.steps.length > 0
      ? { kind: 'table', table: stepsTable(content.steps) }
      : { kind: 'lines', lines: ['(no step ran)'] },
  ];
  return { subject, text: renderTextDocument(blocks), html: renderHtmlDocument(subject, blocks) };
}

function summaryLines(content: BisectContent): string[] {
  const range =
    `Bisection of ${content.tag} (series ${content.upstream}) from the good release ${content.goodTag}: ` +
    `${content.commitCount} commit(s), tests ${content.tests.join(', ')}.`;
  const builds = `Builds: ${content.builds}.`;
  if (content.firstBad !== undefined)
    return [
      range,
      `First bad commit: ${content.firstBad.commit}`,
      `Subject: ${content.firstBad.subject}`,
      `Author: ${content.firstBad.author}`,
      builds,
    ];
  const why =
    content.outcome === 'failed'
      ? `It failed: ${content.error ?? 'no error was kept'}.`
      : content.outcome === 'budget'
        ? `The budget ran out (bisect_max_builds, bisect_max_hours); ${content.candidates} commit(s) left.`
        : content.outcome === 'ambiguous'
          ? `The first bad commit is one of ${content.candidates} (the others did not build).`
          : `A step could not tell good from bad; ${content.candidates} commit(s) left.`;
  return [range, `Bisect could not decide. ${why}`, builds, `To run it by hand: qpswatch bisect ${content.tag}`];
}

function stepsTable(steps: readonly BisectStepContent[]) {
  return makeTable(
    [left('commit'), left('subject'), left('build'), right('relative QPS'), left('verdict')],
    steps.map((s) => [
      short(s.commit),
      inertLine(s.subject),
      s.outcome === 'skip' ? 'skipped' : 'built',
      qpsCell(s.relativeQps),
      s.outcome === 'skip' ? '-' : s.outcome,
    ]),
  );
}

function qpsCell(relativeQps: Readonly<Record<string, number>> | undefined): string {
  const entries = Object.entries(relativeQps ?? {});
  return entries.length === 0 ? '-' : entries.map(([t, q]) => `${t} ${q.toFixed(2)}`).join(', ');
}
