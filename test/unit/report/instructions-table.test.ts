import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { functionGrowth, judgeInstructionTest, sessionFunctionGrowth } from '../../../src/analysis/index.js';
import type { ComparisonView, InstructionsView } from '../../../src/model/index.js';
import {
  functionCell,
  functionGrowthTable,
  laneHeadline,
  laneLine,
  renderComparison,
  instructionsBlocks,
  renderTextDocument,
} from '../../../src/report/index.js';
import { parseCsv } from './csv-parse.js';
import { sampleView } from './sample-view.js';

const lane = {
  state: 'done' as const,
  counter: 'callgrind' as const,
  counterVersion: 'valgrind-3.19.0',
  runs: 12,
  seconds: 250.4,
};
const point = judgeInstructionTest(
  { test: 'point-query', threads: 1 },
  [42_640, 42_674, 42_666],
  [43_960, 43_990, 43_970],
  1.02,
);
const update = judgeInstructionTest({ test: 'update-index', threads: 1 }, [99_654, 99_692], [99_650, 99_700], 1.02);

/** Both sides' function tables of point-query: the dispatcher grew by 1,300, a new function of 1,300 appeared. */
const pointTables = [
  {
    role: 'baseline' as const,
    test: 'point-query',
    threads: 1,
    functions: [
      { name: 'dispatch_command()', object: 'mariadbd', inclusive: 42_666, exclusive: 900 },
      { name: 'JOIN::exec()', object: 'mariadbd', inclusive: 20_000, exclusive: 500 },
    ],
  },
  {
    role: 'candidate' as const,
    test: 'point-query',
    threads: 1,
    functions: [
      { name: 'dispatch_command()', object: 'mariadbd', inclusive: 43_970, exclusive: 904 },
      { name: 'JOIN::exec()', object: 'mariadbd', inclusive: 21_300, exclusive: 500 },
      { name: '<img src=x onerror=alert(1)>\u001b[31m', object: 'evil.so', inclusive: 1_300, exclusive: 1_300 },
    ],
  },
];

/** The lane's blocks alone, as text. */
const laneText = (view: InstructionsView): string => renderTextDocument(instructionsBlocks(view));

function laneView(): InstructionsView {
  return { lane, verdicts: [point, update], grown: sessionFunctionGrowth([point, update], pointTables) };
}

function withLane(): ComparisonView {
  return { ...sampleView(), instructions: laneView() };
}

describe('the instructions lane as text', () => {
  test('its headline, its line, one row per test: medians, C/B to 0.0001 with its bounds, spreads, the verdict', () => {
    const text = laneText({ lane, verdicts: [point, update] });
    assert.deepEqual(text.split('\n').slice(0, 11), [
      'Instructions per query (1-thread tests)',
      '---------------------------------------',
      '',
      '1 regression, 1 ok',
      '',
      'callgrind (valgrind-3.19.0), 12 runs in 250 s',
      '',
      'test             B instr/q  C instr/q     C/B         bounds  spread B  spread C  verdict',
      'point-query.t1      42,666     43,970  1.0306  1.0301-1.0317     0.08%     0.07%  regression (> 1.02)',
      'update-index.t1     99,673     99,675  1.0000  0.9996-1.0005     0.04%     0.05%  ok',
      '',
    ]);
  });

  test('an improvement names the limit it passed: under the inverse of the threshold', () => {
    const fewer = judgeInstructionTest(
      { test: 'update-index', threads: 1 },
      [182_981, 182_980],
      [159_355, 159_359],
      1.02,
    );
    assert.equal(fewer.kind, 'improvement');
    assert.match(laneText({ lane, verdicts: [fewer] }), /^update-index\.t1 .* 0\.8709 .* improvement \(< 0\.9804\)$/m);
  });

  test('a lane that did not count says why; against the base, a table of its own or why there is none', () => {
    assert.equal(
      laneLine({ lane: { state: 'skipped', reason: 'valgrind is not installed', runs: 0, seconds: 0 }, verdicts: [] }),
      'not counted: valgrind is not installed',
    );
    assert.match(
      laneLine({ lane: { ...lane, state: 'failed', reason: 'server did not start', runs: 3 }, verdicts: [] }),
      /^failed after 3 runs: server did not start \(callgrind/,
    );
    const text = laneText({
      lane,
      verdicts: [point],
      againstBase: { tag: 'mariadb-10.11.1', verdicts: [] },
    });
    assert.match(
      text,
      /Against the series' base mariadb-10\.11\.1, from stored figures:\n\n\(no stored figure of the base/,
    );
  });

  test('the headline counts each kind, worst first, in its tone', () => {
    const unclear = { ...update, kind: 'unclear' as const };
    const faster = { ...update, kind: 'improvement' as const };
    const cases: Array<[string, InstructionsView['verdicts'], string | undefined, string[]]> = [
      ['none', [], undefined, []],
      ['one of each', [update, faster, unclear, point], '1 regression, 1 unclear, 1 improvement, 1 ok', []],
      ['plurals', [point, point, update, update], '2 regressions, 2 ok', ['regression', 'ok']],
    ];
    for (const [name, verdicts, text, tones] of cases) {
      const headline = laneHeadline(verdicts);
      assert.equal(headline?.text, text, name);
      if (tones.length > 0)
        assert.deepEqual(
          headline?.parts.map((p) => p.tone),
          tones,
          name,
        );
    }
    assert.deepEqual(
      laneHeadline([unclear])?.parts.map((p) => p.tone),
      ['unstable'],
    );
  });

  test('where it grew: the regressed test gets its table, the others a line saying where theirs are', () => {
    const text = laneText(laneView());
    assert.match(text, /Functions that grew: point-query\.t1, C\/B 1\.0306\n/);
    assert.doesNotMatch(text, /Functions that grew: update-index/);
    assert.match(
      text,
      /Functions that grew in the 1 other test \(ok or fewer instructions\): in --format json and csv/,
    );
    // Top growth first; a function alone past the threshold's 2% is the regression's cause.
    const rows = text.split('\n').filter((l) => /^(dispatch_command|JOIN|<img)/.test(l));
    assert.deepEqual(
      rows.map((r) => r.split(/\s{2,}/).slice(0, 6)),
      [
        ['dispatch_command()', 'mariadbd', '42,666', '43,970', '+1,304', '+3.06%'],
        ['<img src=x onerror=alert(1)>\\x1b[31m', 'evil.so', '-', '1,300', '+1,300', '+3.05%'],
        ['JOIN::exec()', 'mariadbd', '20,000', '21,300', '+1,300', '+3.05%'],
      ],
    );
    // B's table does not list the new function: "-", not a count of 0 it never measured, and a note says so.
    assert.match(text, /^- : not in that side's stored table \(under 1 in 10,000 of its instructions/m);
  });
});

describe('the functions that grew', () => {
  test('the share of the test is toned where the function alone passes the threshold', () => {
    const grown = functionGrowth(
      [{ name: 'a', object: 'x', inclusive: 1000, exclusive: 10 }],
      [
        { name: 'a', object: 'x', inclusive: 1030, exclusive: 40 },
        { name: 'b', object: 'x', inclusive: 5, exclusive: 5 },
      ],
    );
    const table = functionGrowthTable(grown, 1000, 1.02);
    assert.deepEqual(
      table.rows.map((r) => [r[0], r[4], r[5], r[8]]),
      [
        ['a', '+30', '+3.00%', '+30'],
        ['b', '+5', '+0.50%', '+5'],
      ],
    );
    assert.deepEqual(
      table.tones?.map((t) => t[5]),
      ['regression', undefined],
    );
    const shrank = functionGrowthTable(
      functionGrowth([{ name: 'a', object: 'x', inclusive: 1000, exclusive: 0 }], []),
      1000,
      1.02,
    );
    assert.deepEqual([shrank.rows[0]![5], shrank.tones?.[0]?.[5]], ['-100.00%', 'improvement']);
  });

  test('a long symbol is cut in tables, its cut marked', () => {
    const cases: Array<[string, string]> = [
      ['short()', 'short()'],
      ['x'.repeat(72), 'x'.repeat(72)],
      ['y'.repeat(73), `${'y'.repeat(71)}…`],
    ];
    for (const [name, shown] of cases) assert.equal(functionCell(name), shown);
  });

  test('a test with no table on a side (perf) has no growth', () => {
    assert.deepEqual(sessionFunctionGrowth([point], [pointTables[0]!]), []);
    assert.deepEqual(
      sessionFunctionGrowth([point, update], pointTables).map((g) => g.test),
      ['point-query'],
    );
  });
});

describe('the lane in every format of a comparison', () => {
  test('text and md: after the QPS verdicts, before the per-test tables', () => {
    for (const format of ['text', 'md'] as const) {
      const out = renderComparison(withLane(), format);
      const lanePlace = out.indexOf('Instructions per query (1-thread tests)');
      assert.ok(lanePlace > out.indexOf('Relative QPS'), format);
      assert.ok(lanePlace < out.indexOf('Per operation: point-query.t1'), format);
      assert.match(out, /Functions that grew: point-query\.t1/, format);
    }
    assert.match(renderComparison(withLane(), 'md'), /^\*\*1 regression, 1 ok\*\*$/m);
  });

  test('json carries the lane whole: its verdicts with every repeat and each test’s functions in full', () => {
    const json = JSON.parse(renderComparison(withLane(), 'json')) as ComparisonView;
    const lanes = json.instructions!;
    assert.deepEqual(Object.keys(lanes), ['lane', 'verdicts', 'grown']);
    assert.deepEqual(lanes.lane, lane);
    assert.deepEqual(lanes.verdicts[0]!.candidate.perQuery, [43_960, 43_990, 43_970]);
    assert.equal(lanes.verdicts[0]!.kind, 'regression');
    const grown = lanes.grown![0]!;
    assert.deepEqual([grown.test, grown.threads, grown.functions.length], ['point-query', 1, 3]);
    assert.deepEqual(Object.keys(grown.functions[0]!), [
      'name',
      'object',
      'baselineInclusive',
      'candidateInclusive',
      'baselineExclusive',
      'candidateExclusive',
      'inclusiveGrowth',
      'exclusiveGrowth',
    ]);
    assert.equal(grown.functions[1]!.name, '<img src=x onerror=alert(1)>\u001b[31m');
    assert.equal(JSON.parse(renderComparison(sampleView(), 'json')).instructions, undefined);
  });

  test('csv: the lane on each test-and-side record, then one record per function and side', () => {
    const [header, ...records] = parseCsv(renderComparison(withLane(), 'csv'));
    const at = (name: string): number => header!.indexOf(name);
    const cell = (record: string[], name: string): string => record[at(name)]!;
    const tests = records.filter((r) => cell(r, 'function') === '');
    const functions = records.filter((r) => cell(r, 'function') !== '');
    const cases: Array<[string, string, string[]]> = [
      // test, role: instructions_per_query, _relative, _verdict
      ['point-query', 'baseline', ['42666', '1', 'regression']],
      ['point-query', 'candidate', ['43970', String(point.ratio), 'regression']],
      ['update-index', 'baseline', ['99673', '1', 'ok']],
      ['update-index', 'candidate', ['99675', String(update.ratio), 'ok']],
    ];
    assert.equal(tests.length, cases.length);
    for (const [name, role, expected] of cases) {
      const record = tests.find((r) => cell(r, 'test') === name && cell(r, 'role') === role)!;
      assert.deepEqual(
        ['instructions_per_query', 'instructions_relative', 'instructions_verdict'].map((c) => cell(record, c)),
        expected,
        `${name} ${role}`,
      );
    }
    assert.deepEqual(
      functions.map((r) => [cell(r, 'function'), cell(r, 'role'), cell(r, 'inclusive_per_query'), cell(r, 'qps')]),
      [
        ['dispatch_command()', 'baseline', '42666', ''],
        ['dispatch_command()', 'candidate', '43970', ''],
        ['<img src=x onerror=alert(1)>\u001b[31m', 'baseline', '', ''],
        ['<img src=x onerror=alert(1)>\u001b[31m', 'candidate', '1300', ''],
        ['JOIN::exec()', 'baseline', '20000', ''],
        ['JOIN::exec()', 'candidate', '21300', ''],
      ],
    );
    for (const record of records) assert.equal(record.length, header!.length);
    assert.deepEqual(
      [cell(functions[0]!, 'target'), cell(functions[1]!, 'target'), cell(functions[1]!, 'inclusive_growth')],
      ['mariadb-10.11.9', 'mariadb-10.11.10', '1304'],
    );
  });

  test('html: the lane headline as badges, C/B and verdicts coloured, every symbol name escaped', () => {
    const html = renderComparison(withLane(), 'html');
    assert.match(
      html,
      /<h2[^>]*>Instructions per query \(1-thread tests\)<\/h2>\n<p[^>]*><span [^>]*#ffebe9[^>]*>1 regression<\/span>/,
    );
    assert.match(html, />1\.0306<\/td>/);
    assert.match(html, /background-color:#ffebe9;color:#a40e26">1\.0306<\/td>/);
    assert.match(html, /background-color:#dafbe1;color:#116329">ok<\/td>/);
    assert.match(html, /background-color:#ffebe9;color:#a40e26">\+3\.06%<\/td>/);
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });
});
