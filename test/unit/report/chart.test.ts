import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  relativeQpsChart,
  renderHtmlChart,
  renderMarkdownChart,
  renderTextChart,
  TEXT_BAR_WIDTH,
  type ChartBlock,
} from '../../../src/report/index.js';
import { rowVerdict, sampleView } from './sample-view.js';
import { joined } from '../../helpers/pattern.js';

function chart(bars: ChartBlock['bars'], references: number[] = []): ChartBlock {
  return { kind: 'chart', title: 'C/B by test', bars, references };
}

describe('renderTextChart', () => {
  test('pads labels, scales bars to the largest value, prints two decimals and the tone', () => {
    const lines = renderTextChart(
      chart([
        { label: 'a.t1', value: 2, tone: 'improvement' },
        { label: 'longer.t16', value: 1, tone: 'ok' },
        { label: 'c.t1', value: 0.5, tone: 'neutral' },
      ]),
    );
    assert.deepEqual(lines, [
      'C/B by test',
      `a.t1        ${'#'.repeat(40)}  2.00  improvement`,
      `longer.t16  ${'#'.repeat(20)}${' '.repeat(20)}  1.00  ok`,
      `c.t1        ${'#'.repeat(10)}${' '.repeat(30)}  0.50`,
    ]);
    assert.equal(TEXT_BAR_WIDTH, 40);
  });

  test('marks references with | and names them in the title line; a larger reference sets the scale', () => {
    const lines = renderTextChart(chart([{ label: 'x', value: 0.5, tone: 'regression' }], [2, 1]));
    // scale 2: the bar fills 10 cells, 1 ends on cell 20, 2 on cell 40
    assert.deepEqual(lines, [
      'C/B by test (| at 1.00, 2.00)',
      `x  ${'#'.repeat(10)}${' '.repeat(9)}|${' '.repeat(19)}|  0.50  regression`,
    ]);
  });

  test('a value that is not finite prints "-" and draws no bar', () => {
    const lines = renderTextChart(
      chart([
        { label: 'x', value: Number.NaN, tone: 'neutral' },
        { label: 'y', value: Number.POSITIVE_INFINITY, tone: 'neutral' },
        { label: 'z', value: 1, tone: 'neutral' },
      ]),
    );
    // the value column stays aligned under the others
    const empty = ' '.repeat(40);
    assert.deepEqual(lines.slice(1), [`x  ${empty}     -`, `y  ${empty}     -`, `z  ${'#'.repeat(40)}  1.00`]);
  });

  test('a control character in a label stays on its line', () => {
    assert.equal(
      renderTextChart(chart([{ label: 'a\nb', value: 1, tone: 'ok' }]))[1],
      `a\\nb  ${'#'.repeat(40)}  1.00  ok`,
    );
  });
});

describe('renderMarkdownChart', () => {
  test('the text chart in a fence longer than any backtick run in it', () => {
    const plain = renderMarkdownChart(chart([{ label: 'x', value: 1, tone: 'ok' }]));
    assert.equal(plain[0], '```');
    assert.equal(plain.at(-1), '```');
    const awkward = renderMarkdownChart(chart([{ label: 'x````y', value: 1, tone: 'ok' }]));
    assert.equal(awkward[0], '`````');
    assert.equal(awkward.at(-1), '`````');
  });
});

describe('renderHtmlChart', () => {
  test('bars are cells with a background colour and a width in percent; references are shown', () => {
    const html = renderHtmlChart(
      chart(
        [
          { label: '<b>', value: 0.8, tone: 'regression' },
          { label: 'n', value: Number.NaN, tone: 'neutral' },
        ],
        [1],
      ),
    ).join('\n');
    assert.match(
      html,
      joined(
        /&lt;b&gt;<\/td><td width="320"[^>]*><table[^>]*><tr><td /,
        /width="80\.0%" /,
        /style="width:80\.0%;height:14px;background-color:#cf222e;/,
      ),
    );
    assert.match(
      html,
      joined(
        />n<\/td><td width="320"[^>]*><table[^>]*><tr><td /,
        /style="font-size:0;line-height:0">&nbsp;<\/td><\/tr><\/table><\/td><td[^>]*>-<\/td>/,
      ),
    );
    assert.match(
      html,
      joined(
        />reference<\/td><td[^>]*><table[^>]*><tr><td /,
        /width="100\.0%"[^>]*border-right:2px /,
        /solid[^>]*>&nbsp;<\/td><\/tr><\/table><\/td><td[^>]*>1\.00<\/td>/,
      ),
    );
    assert.doesNotMatch(html, /<b>/);
  });
});

describe('relativeQpsChart', () => {
  test('neutral bars and a reference at 1 when the session was not judged', () => {
    const view = sampleView();
    assert.deepEqual(relativeQpsChart(view), {
      kind: 'chart',
      title: 'C/B by test',
      bars: [
        { label: 'point-query.t1', value: 11800.2 / 12345.4, tone: 'neutral' },
        { label: 'update-index.t1', value: 2611 / 2510, tone: 'neutral' },
      ],
      references: [1],
    });
  });

  test('tones from the verdicts, references at the threshold and 1', () => {
    const view = sampleView();
    view.tests[0]!.verdict = rowVerdict('regression', { pSlower: 0.01, pFaster: 1 });
    view.tests[1]!.verdict = rowVerdict('unstable', { low: 0.88, high: 1.2 });
    const block = relativeQpsChart(view);
    assert.equal(block.kind, 'chart');
    if (block.kind !== 'chart') return;
    assert.deepEqual(
      block.bars.map((bar) => bar.tone),
      ['regression', 'unstable'],
    );
    assert.deepEqual(block.references, [0.95, 1]);
  });
});
