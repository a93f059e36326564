import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seriesLines, type SeriesVerdicts } from '../../../src/cli/status-command.js';
import { undecidedTests } from '../../../src/cli/verdict-summary.js';

const now = new Date('2026-12-01T12:00:00.000Z');
const figures = { threshold: 0.95, confidence: 0.95, detectableDrop: 0.05, pairs: 70 };

function series(outcome: SeriesVerdicts['outcome'], verdicts: SeriesVerdicts['verdicts']): SeriesVerdicts {
  return {
    upstream: 'mariadb-10.11',
    tag: 'mariadb-10.11.3',
    baseline: 'mariadb-10.11.2',
    outcome,
    judgedAt: '2026-12-01T11:57:00.000Z',
    sessionId: 4,
    design: 'paired',
    verdicts,
  };
}

describe('status: the newest check of a series', () => {
  test(
    'an inconclusive check says so, names the undecided and slower tests, ' + 'and prints slower with its interval',
    () => {
      const lines = seriesLines(
        series('inconclusive', [
          { test: 'update-index', threads: 1, kind: 'ok', relativeQps: 1.01, low: 0.97, high: 1.05, ...figures },
          {
            test: 'point-query',
            threads: 1,
            kind: 'slower',
            relativeQps: 0.9624,
            low: 0.9311,
            high: 0.9868,
            ...figures,
          },
          { test: 'insert', threads: 1, kind: 'unstable', relativeQps: 0.97, low: 0.9, high: 1.04, ...figures },
        ]),
        now,
      );
      assert.deepEqual(lines, [
        '  mariadb-10.11: "mariadb-10.11.3" against "mariadb-10.11.2": ' +
          'inconclusive, not last good: undecided insert.t1; slower ' +
          'point-query.t1 (judged 3 min ago)',
        '    update-index.t1  1.01  ok, no drop larger than 3% (95% interval 0.97-1.05, detects 5%, 70 pairs)',
        '    point-query.t1  0.96  slower 0.962 (0.931-0.987): significantly ' +
          'slower, but not shown to be past the 5% margin (95% interval, detects ' +
          '5%, 70 pairs)',
        '    insert.t1  0.97  unstable: cannot rule out a drop larger than the ' +
          '5% margin (95% interval 0.90-1.04, detects 5%, 70 pairs)',
      ]);
    },
  );

  test('a decided check is ok, with nothing kept from last good', () => {
    const [head] = seriesLines(
      series('ok', [
        { test: 'update-index', threads: 1, kind: 'ok', relativeQps: 1, low: 0.97, high: 1.03, ...figures },
      ]),
      now,
    );
    assert.equal(head, '  mariadb-10.11: "mariadb-10.11.3" against "mariadb-10.11.2": ok (judged 3 min ago)');
  });

  test('undecidedTests names what kept a check from last good, and nothing when every test was decided', () => {
    assert.equal(
      undecidedTests([
        { test: 'a', threads: 1, kind: 'slower' },
        { test: 'b', threads: 8, kind: 'unstable' },
        { test: 'c', threads: 1, kind: 'slower' },
      ]),
      'undecided b.t8; slower a.t1, c.t1',
    );
    assert.equal(
      undecidedTests([
        { test: 'a', threads: 1, kind: 'ok' },
        { test: 'b', threads: 1, kind: 'improvement' },
      ]),
      '',
    );
  });
});
