import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeInstructionTest, releaseInstructionFigures, type LaneSide } from '../../../src/analysis/index.js';
import type { InstructionRunRecord, ReleaseRecord, SessionRecord } from '../../../src/store/index.js';

const release = (id: number, version: string): ReleaseRecord => ({
  id,
  upstream: 'demo',
  flavor: 'mariadb',
  tag: `mariadb-${version}`,
  commit: 'a'.repeat(40),
  version,
  versionKey: version,
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  movedFrom: null,
  movedAt: null,
});
const [r1, r2, r3] = [release(1, '10.11.1'), release(2, '10.11.2'), release(3, '10.11.3')];

const session = (id: number, hostId = 1, settings: Record<string, unknown> = {}): SessionRecord =>
  ({ id, hostId, state: 'done', settings }) as unknown as SessionRecord;

let runId = 0;
/** One counted run of 1,000 queries at `perQuery` instructions each. */
const run = (
  sessionId: number,
  role: 'baseline' | 'candidate',
  perQuery: number,
  extra: Partial<InstructionRunRecord> = {},
): InstructionRunRecord => ({
  id: ++runId,
  sessionId,
  createdAt: '2026-01-01T00:00:00.000Z',
  role,
  target: 't',
  buildKey: `k-${role}`,
  test: 'point-query',
  threads: 1,
  repeat: 1,
  instructions: perQuery * 1000,
  queries: 1000,
  conditions: {},
  conditionKey: 'c1',
  seconds: 10,
  ...extra,
});

/** A session of B against C: each side's runs at the given counts, with each side's binary. */
function sides(
  id: number,
  b: ReleaseRecord,
  c: ReleaseRecord,
  counts: { b: number[]; c: number[] },
  opts: { hostId?: number; conditionKey?: string; settings?: Record<string, unknown> } = {},
): LaneSide[] {
  const s = session(id, opts.hostId, opts.settings);
  const extra = (r: ReleaseRecord) => ({ buildKey: `k-${r.version}`, conditionKey: opts.conditionKey ?? 'c1' });
  return [
    { session: s, role: 'baseline', release: b, runs: counts.b.map((n) => run(id, 'baseline', n, extra(b))) },
    { session: s, role: 'candidate', release: c, runs: counts.c.map((n) => run(id, 'candidate', n, extra(c))) },
  ];
}

const SETTINGS = { threshold: 1.02, testThresholds: {} };

describe('releaseInstructionFigures: each release against the base straight from stored figures', () => {
  test('per release the median over every session side that counted it; the ratio to the base without chaining', () => {
    const figures = releaseInstructionFigures({
      sides: [
        ...sides(10, r1, r2, { b: [1000, 1002], c: [1010, 1012] }),
        // r2 again as the baseline of the next check: both count.
        ...sides(11, r2, r3, { b: [1011], c: [1050, 1052] }),
      ],
      bases: new Map([[1, r1.id]]),
      settings: SETTINGS,
    });
    const cases: Array<[number, number, number | null, string | null]> = [
      // release, per query, relative to the base, verdict against it
      [r1.id, 1001, 1, null],
      [r2.id, 1011, 1011 / 1001, 'ok'],
      [r3.id, 1051, 1051 / 1001, 'regression'],
    ];
    assert.deepEqual(
      figures.map((f) => [f.releaseId, f.perQuery, f.relativeToBase, f.againstBase?.kind ?? null]),
      cases,
    );
    assert.deepEqual(
      figures.map((f) => f.repeats),
      [2, 3, 2],
    );
    // The same verdict a check against the base would give from the same counts.
    assert.deepEqual(
      figures[2]!.againstBase,
      judgeInstructionTest({ test: 'point-query', threads: 1 }, [1000, 1002], [1050, 1052], 1.02),
    );
  });

  test('another condition key is another figure: no ratio across conditions, the newest conditions win', () => {
    const figures = releaseInstructionFigures({
      sides: [
        ...sides(10, r1, r2, { b: [1000], c: [1010] }),
        // r3 counted later under other conditions (another valgrind): no base figure of those.
        ...sides(12, r2, r3, { b: [2000], c: [2100] }, { conditionKey: 'c2' }),
      ],
      bases: new Map([[1, r1.id]]),
      settings: SETTINGS,
    });
    const byRelease = new Map(figures.map((f) => [f.releaseId, f]));
    assert.deepEqual(
      [byRelease.get(r2.id)?.perQuery, byRelease.get(r2.id)?.conditionKey, byRelease.get(r2.id)?.relativeToBase],
      [2000, 'c2', null],
    );
    assert.deepEqual([byRelease.get(r3.id)?.relativeToBase, byRelease.get(r3.id)?.againstBase], [null, null]);
  });

  test('hosts and memory settings are kept apart; the last good ratio is the newest check’s; kept filters', () => {
    const figures = releaseInstructionFigures({
      sides: [
        ...sides(10, r1, r2, { b: [1000], c: [1030] }),
        ...sides(20, r1, r2, { b: [1000], c: [1100] }, { hostId: 2 }),
        ...sides(30, r1, r2, { b: [1000], c: [1200] }, { settings: { memory: 'io-bound' } }),
      ],
      bases: new Map([
        [1, r1.id],
        [2, r1.id],
      ]),
      settings: SETTINGS,
      checked: new Map([
        ['1\u00002', [{ ...judgeInstructionTest({ test: 'point-query', threads: 1 }, [1], [1.03], 1.02) }]],
      ]),
      kept: new Set([r2.id]),
    });
    assert.deepEqual(
      figures.map((f) => [f.hostId, f.memory ?? '', f.perQuery, f.relativeToBase, f.relativeToLastGood]),
      [
        [1, '', 1030, 1.03, 1.03],
        [2, '', 1100, 1.1, null],
        [1, 'io-bound', 1200, 1.2, null],
      ],
    );
  });

  test('a host with no base, or a base with no run of the test, gives the figure alone', () => {
    const figures = releaseInstructionFigures({
      sides: sides(10, r1, r2, { b: [1000], c: [1010] }),
      bases: new Map(),
      settings: SETTINGS,
    });
    assert.deepEqual(
      figures.map((f) => [f.releaseId, f.perQuery, f.relativeToBase]),
      [
        [r1.id, 1000, null],
        [r2.id, 1010, null],
      ],
    );
  });
});
