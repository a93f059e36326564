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
  test('an SVG: bars in their tone, width by value, references as dashed lines with their value', () => {
    const html = renderHtmlChart(
      chart(
        [
          { label: '<b>', value: 0.8, tone: 'regression' },
          { label: 'n', value: Number.NaN, tone: 'neutral' },
        ],
        [1],
      ),
    ).join('\n');
    assert.match(html, /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // scale 1: 0.8 of the 380 px plot
    assert.match(html, /<text[^>]*>&lt;b&gt;<\/text><rect x="200" y="[0-9.]+" width="304\.0" [^>]*fill="#cf222e"/);
    assert.match(html, />n<\/text><text[^>]*>-<\/text>/);
    assert.match(html, /<line x1="580\.0"[^>]*stroke-dasharray="4 3"\/><text[^>]*>1\.00<\/text>/);
    assert.doesNotMatch(html, /<script|<b>/);
  });

  test("a bar's interval is a whisker; one past the plot ends in an arrow", () => {
    const html = renderHtmlChart(
      chart(
        [
          { label: 'a', value: 0.5, tone: 'regression', low: 0.4, high: 0.6 },
          { label: 'b', value: 1, tone: 'unstable', low: 0.5, high: null },
        ],
        [0.9, 1],
      ),
    ).join('\n');
    // scale 1: 0.4 and 0.6 at 200 + 152 and 200 + 228
    assert.match(html, /<line x1="352\.0" y1="([0-9.]+)" x2="428\.0" y2="\1"/);
    assert.match(html, /<path d="M580\.0 [0-9.]+ l-6 -4 v8 z"/);
    assert.match(html, /<title>a: 0\.50 \(0\.40-0\.60\)<\/title>/);
    assert.match(html, />0\.90<\/text>/);
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
