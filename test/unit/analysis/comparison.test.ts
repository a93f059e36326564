import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bufferPoolHitRatio, compareSession } from '../../../src/analysis/index.js';
import type { Verdict } from '../../../src/model/index.js';
import type { SampleRecord, SessionRecord, TargetRef } from '../../../src/store/index.js';
import { sampleInput } from '../store/store-inputs.js';

const target = (name: string): TargetRef => ({
  name,
  flavor: 'mariadb',
  version: name,
  binary: '/usr/sbin/mariadbd',
  serverProfile: 'default',
  description: {},
});

function session(settings: Record<string, unknown>): SessionRecord {
  return {
    id: 7,
    kind: 'compare',
    hostId: 1,
    state: 'done',
    baseline: target('10.11.9'),
    candidate: target('10.11.10'),
    suite: 'quick',
    rounds: 24,
    pid: 1,
    pidStartTicks: null,
    settings,
    error: null,
    startedAt: '2026-12-01T06:00:00.000Z',
    endedAt: '2026-12-01T06:10:00.000Z',
  };
}

/** Three pairs of point-query: C/B 0.9, 1.0, 1.1 (median ratio 1, geometric mean 0.9967). */
function samples(): SampleRecord[] {
  const qps = { baseline: [1000, 1000, 1000], candidate: [900, 1000, 1100] };
  return [1, 2, 3].flatMap((round) =>
    (['baseline', 'candidate'] as const).map((role, i) => {
      const { host, ...rest } = sampleInput({
        round,
        role,
        test: 'point-query',
        threads: 1,
        qps: qps[role][round - 1]!,
      });
      return {
        ...rest,
        host: host as Record<string, unknown>,
        id: round * 2 + i,
        sessionId: 7,
        createdAt: '2026-12-01T06:01:00.000Z',
      };
    }),
  );
}

const verdict = (over: Partial<Verdict> = {}): Verdict => ({
  test: 'point-query',
  threads: 1,
  kind: 'ok',
  relativeQps: 0.9967,
  threshold: 0.95,
  pSlower: 0.5,
  pFaster: 0.5,
  baselineSpread: 0,
  low: 0.96,
  high: 1.04,
  confidence: 0.95,
  detectableDrop: 0.045,
  pairs: 3,
  noise: 0.1,
  hint: [],
  ...over,
});

describe('compareSession', () => {
  test("a judged row takes the verdict's relative QPS, interval, detectable drop, pairs and noise", () => {
    const view = compareSession(session({ design: 'paired' }), samples(), {}, [verdict()]);
    const row = view.tests[0]!;
    assert.equal(row.relativeQps, 0.9967, 'the geometric mean of the pairs, not the ratio of medians (1)');
    assert.deepEqual(
      {
        low: row.verdict!.low,
        high: row.verdict!.high,
        confidence: row.verdict!.confidence,
        detectableDrop: row.verdict!.detectableDrop,
        pairs: row.verdict!.pairs,
        noise: row.verdict!.noise,
      },
      { low: 0.96, high: 1.04, confidence: 0.95, detectableDrop: 0.045, pairs: 3, noise: 0.1 },
    );
    assert.equal(view.design, 'paired');
    assert.equal(view.rounds, 24);
  });

  test('an unjudged row keeps the ratio of medians; a session without a recorded design has none', () => {
    const view = compareSession(session({}), samples(), {});
    assert.equal(view.tests[0]!.relativeQps, 1);
    assert.equal(view.tests[0]!.verdict, undefined);
    assert.equal('design' in view, false);
  });

  test('a verdict without an upper end and without noise (one pair) keeps them null in the row', () => {
    const view = compareSession(session({ design: 'runs' }), samples(), {}, [
      verdict({ kind: 'unstable', low: 0, high: null, noise: null, detectableDrop: 1, pairs: 1 }),
    ]);
    assert.equal(view.design, 'runs');
    assert.equal(view.tests[0]!.verdict!.high, null);
    assert.equal(view.tests[0]!.verdict!.noise, null);
  });

  test('a session under a memory setting names it; each side gets the hit ratio of its runs, summed over them', () => {
    const withPool = samples().map((s) => ({
      ...s,
      dbCounters: {
        ...s.dbCounters,
        Innodb_buffer_pool_read_requests: { delta: 3000, perOp: 3 },
        Innodb_buffer_pool_reads: { delta: s.role === 'baseline' ? 0 : s.round * 300, perOp: 0 },
      },
    }));
    const view = compareSession(session({ design: 'paired', memory: 'io-bound' }), withPool, {});
    assert.equal(view.memory, 'io-bound');
    assert.equal(view.tests[0]!.baseline.hitRatio, 1);
    assert.equal(view.tests[0]!.candidate.hitRatio, 1 - 1800 / 9000, '300 + 600 + 900 reads of 3 x 3000 requests');
    assert.equal(
      'memory' in compareSession(session({ memory: 'swap' }), samples(), {}),
      false,
      'an unknown stored value is no setting',
    );
  });
});

test('bufferPoolHitRatio: none without logical reads (a version without the counters)', () => {
  assert.equal(bufferPoolHitRatio([]), undefined);
  assert.equal(bufferPoolHitRatio([{ dbCounters: { Innodb_buffer_pool_reads: { delta: 5, perOp: 1 } } }]), undefined);
});
