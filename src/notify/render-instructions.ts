import { testLabel, type FunctionGrowth, type InstructionVerdict } from '../model/index.js';
import {
  functionGrowthBlocks,
  instructionsTable,
  renderHtmlDocument,
  renderTextDocument,
  type Block,
} from '../report/index.js';
import type { RenderedMessage } from './alert-content.js';
import { headerText } from './alert-subject.js';
import { inertLine } from './render-failure.js';

/** One test whose instructions per query grew past the threshold, against the release it was judged against. */
export interface InstructionsAlertTest {
  kind: 'regression' | 'drift';
  /** The tag it was compared with: the last good release (regression) or the series' base (drift). */
  against: string;
  verdict: InstructionVerdict;
  /** The functions that grew most per query, top growth first (empty when the counter names none: perf). */
  grown: readonly FunctionGrowth[];
}

/** The instructions lane's email: the events one check opened, each test with the functions that grew. */
export interface InstructionsAlertContent {
  flavor: string;
  upstream: string;
  tag: string;
  version: string;
  /** e.g. "callgrind (valgrind-3.19.0)" */
  counter: string;
  tests: readonly InstructionsAlertTest[];
}

const growth = (ratio: number): string => `${ratio >= 1 ? '+' : ''}${(100 * (ratio - 1)).toFixed(1)}%`;

/** e.g. "qpswatch: mariadb 10.11.4 instructions per query grew: point-query.t1 +3.1% of 10.11.3 (+1 more)". */
export function instructionsSubject(content: InstructionsAlertContent): string {
  const [worst] = [...content.tests].sort((a, b) => b.verdict.ratio - a.verdict.ratio);
  const more = content.tests.length > 1 ? ` (+${content.tests.length - 1} more)` : '';
  const test =
    worst === undefined
      ? ''
      : `: ${testLabel(worst.verdict)} ${growth(worst.verdict.ratio)} of ` +
        `${worst.kind === 'drift' ? 'base ' : ''}${worst.against}`;
  return headerText(`qpswatch: ${content.flavor} ${content.version} instructions per query grew${test}${more}`);
}

/**
 * Subject, text and HTML of the one email an instructions regression or drift sends: the headline, the tests with
 * their ratios and spreads, and per test the functions that grew. Function names are data (a binary's symbols):
 * made inert in the text part, escaped by the HTML layout.
 */
export function renderInstructionsAlert(content: InstructionsAlertContent): RenderedMessage {
  const subject = instructionsSubject(content);
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: subject },
    {
      kind: 'lines',
      lines: [
        inertLine(
          `${content.flavor} ${content.version} (tag ${content.tag}, series ${content.upstream}) executes more ` +
            `instructions per query than the release it was compared with, past the threshold and beyond the ` +
            `spread of repeated counts. Counted by ${content.counter} in the connection thread's query dispatcher, ` +
            `at 1 client thread.`,
        ),
        'Triage it like a regression: qpswatch accept, ack or invalid TAG.',
      ],
    },
  ];
  for (const kind of ['regression', 'drift'] as const) {
    const tests = content.tests.filter((t) => t.kind === kind);
    if (tests.length === 0) continue;
    const against = tests[0]!.against;
    blocks.push(
      {
        kind: 'heading',
        level: 2,
        text: kind === 'regression' ? `Against the last good ${against}` : `Against the series' base ${against}`,
      },
      { kind: 'table', table: instructionsTable(tests.map((t) => t.verdict)) },
    );
  }
  // Symbol names are data: the text layout shows their control characters escaped, the HTML layout escapes them.
  for (const t of content.tests) blocks.push(...functionGrowthBlocks(t.verdict, t.grown, t.against));
  return { subject, text: renderTextDocument(blocks), html: renderHtmlDocument(subject, blocks) };
}
