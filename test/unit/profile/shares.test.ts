import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { foldStacks, rankGrownFrames } from '../../../src/profile/index.js';

describe('foldStacks', () => {
  test('counts equal stacks, keeps frame separators out of names, and skips empty stacks', () => {
    assert.deepEqual(foldStacks([['main', 'a;b'], ['main', 'a;b'], [], ['main', 'line\nbreak', '']]), [
      { stack: 'main;a,b', count: 2 },
      { stack: 'main;line break;[unknown]', count: 1 },
    ]);
  });
});

describe('rankGrownFrames', () => {
  const baseline = [
    { stack: 'main;commit;write', count: 8 },
    { stack: 'main;commit;fsync', count: 2 },
  ];
  const candidate = [
    { stack: 'main;commit;write', count: 10 },
    { stack: 'main;commit;fsync', count: 30 },
  ];

  test('ranks by the growth of total share, with self shares beside it; frames that shrank are left out', () => {
    const rows = rankGrownFrames(baseline, candidate);
    assert.deepEqual(
      rows.map((r) => r.frame),
      ['fsync'],
    );
    const fsync = rows[0]!;
    assert.equal(fsync.baselineTotal, 0.2);
    assert.equal(fsync.candidateTotal, 0.75);
    assert.equal(fsync.candidateSelf, 0.75);
    assert.ok(Math.abs(fsync.totalGrowth - 0.55) < 1e-12);
  });

  test('a recursive frame counts once per sample: its total share stays at most 1', () => {
    const rows = rankGrownFrames([{ stack: 'main;x', count: 1 }], [{ stack: 'main;f;f;f', count: 4 }]);
    assert.deepEqual(
      rows.find((r) => r.frame === 'f'),
      {
        frame: 'f',
        baselineSelf: 0,
        candidateSelf: 1,
        baselineTotal: 0,
        candidateTotal: 1,
        totalGrowth: 1,
        selfGrowth: 1,
      },
    );
  });

  test('an empty baseline counts as no share at all; the limit caps the rows', () => {
    const rows = rankGrownFrames([], candidate, 2);
    assert.deepEqual(
      rows.map((r) => r.frame),
      ['commit', 'main'],
    );
  });
});
