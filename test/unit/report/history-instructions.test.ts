import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HistoryInstructions, HistoryView } from '../../../src/model/index.js';
import { checkHistoryView, renderHistory } from '../../../src/report/index.js';
import { parseCsv } from './csv-parse.js';
import { sampleHistory } from './sample-history.js';
import { joined } from '../../helpers/pattern.js';

const cell = (
  perQuery: number,
  relativeToBase: number | null,
  verdict: HistoryInstructions['verdict'],
): HistoryInstructions => ({
  perQuery,
  spread: 0.001,
  repeats: 3,
  relativeToBase,
  low: verdict === null ? null : relativeToBase! - 0.001,
  high: verdict === null ? null : relativeToBase! + 0.001,
  verdict,
});

/**
 * The sample history against 10.3.39, with point-query.t1 counted by the lane as views.seriesHistory gives it: the
 * imported 10.2.30 never counted, the base 10.3.39, and 10.11.9 3.1% over the base's count of the same conditions.
 */
function laneHistory(): HistoryView {
  const view = sampleHistory();
  const [point, insert] = view.tests;
  return {
    ...view,
    baseIndex: 1,
    tests: [{ ...point!, instructions: [null, cell(42_666, 1, null), cell(43_990, 1.031, 'regression')] }, insert!],
  };
}

describe('the instructions lane in the history', () => {
  test('text: a table per level and family, each version its count and its ratio to the base', () => {
    const text = renderHistory(laneHistory(), 'text');
    const at = text.indexOf('Instructions per query at 1 thread: point queries (version / 10.3.39)');
    assert.ok(at > text.indexOf('Relative QPS at 16 threads'), 'after the relative QPS tables');
    assert.deepEqual(text.slice(at).split('\n').slice(3, 7), [
      'version       point-query',
      '10.2.30*                -',
      '10.3.39     42,666 (base)',
      '10.11.9   43,990 (1.0310)',
    ]);
    assert.match(
      text,
      joined(
        /^point-query\.t1: 1\.0310 \(repeats 1\.0300-1\.0320\) of the base's instructions per query /,
        /at 10\.11\.9, past the instructions threshold$/m,
      ),
    );
  });

  test('cells: the base, a ratio, no base figure of the same conditions, not counted', () => {
    const view = laneHistory();
    const cases: Array<[HistoryInstructions | null, string]> = [
      [cell(43_990, 1.031, 'regression'), '43,990 (1.0310)'],
      [cell(43_990, null, null), '43,990'],
      [null, '-'],
    ];
    for (const [given, shown] of cases) {
      const tests = [{ ...view.tests[0]!, instructions: [null, cell(42_666, 1, null), given] }, view.tests[1]!];
      const text = renderHistory({ ...view, tests }, 'text');
      assert.match(text, new RegExp(`^10\\.11\\.9 +${shown.replace(/[().]/g, '\\$&')}$`, 'm'), shown);
    }
  });

  test('html: the regressed cell in its colour', () => {
    const html = renderHistory(laneHistory(), 'html');
    assert.match(html, /background-color:#ffebe9;color:#a40e26">43,990 \(1\.0310\)<\/td>/);
    assert.match(html, />42,666 \(base\)<\/td>/);
  });

  test('csv: the lane columns last, full precision, empty where not counted', () => {
    const [header, ...records] = parseCsv(renderHistory(laneHistory(), 'csv'));
    const lane = header!.indexOf('instructions_per_query');
    assert.deepEqual(header!.slice(lane), [
      'instructions_per_query',
      'instructions_spread',
      'instructions_repeats',
      'instructions_rel',
      'instructions_rel_low',
      'instructions_rel_high',
      'instructions_verdict',
    ]);
    const point = (version: string) => records.find((r) => r[3] === version && r[6] === 'point-query')!.slice(lane);
    assert.deepEqual(point('10.2.30'), ['', '', '', '', '', '', '']);
    assert.deepEqual(point('10.3.39'), ['42666', '0.001', '3', '1', '', '', '']);
    assert.deepEqual(point('10.11.9'), [
      '43990',
      '0.001',
      '3',
      '1.031',
      String(1.031 - 0.001),
      String(1.031 + 0.001),
      'regression',
    ]);
    const insert = records.find((r) => r[3] === '10.11.9' && r[6] === 'insert')!;
    assert.deepEqual(insert.slice(lane), ['', '', '', '', '', '', '']);
  });

  test('json: per test counted, one entry per version; a test never counted has none', () => {
    const json = JSON.parse(renderHistory(laneHistory(), 'json')) as HistoryView;
    assert.deepEqual(json.tests[0]!.instructions, [null, cell(42_666, 1, null), cell(43_990, 1.031, 'regression')]);
    assert.equal(json.tests[1]!.instructions, undefined);
  });

  test('a history with no lane figure has no lane section', () => {
    assert.doesNotMatch(renderHistory(sampleHistory(), 'text'), /Instructions per query/);
  });

  test('garbage in the lane figures is refused, naming the field', () => {
    const bad = (instructions: unknown) => {
      const view = laneHistory();
      return { ...view, tests: [{ ...view.tests[0]!, instructions }, view.tests[1]!] } as HistoryView;
    };
    const cases: Array<[unknown, RegExp]> = [
      [[null, null], /instructions\.length/],
      [[null, null, { ...cell(1, 1, null), perQuery: -1 }], /instructions\[2\]\.perQuery/],
      [[null, null, { ...cell(1, 1, null), relativeToBase: Number.NaN }], /instructions\[2\]\.relativeToBase/],
      [[null, null, { ...cell(1, 1, null), repeats: 0 }], /instructions\[2\]\.repeats/],
    ];
    for (const [instructions, field] of cases) assert.throws(() => checkHistoryView(bad(instructions)), field);
  });
});
