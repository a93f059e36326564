import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareSession, judgePairedSession } from '../../../src/analysis/index.js';
import { renderComparison } from '../../../src/report/index.js';
import type { SampleRecord, SessionRecord, TargetRef } from '../../../src/store/index.js';
import { sampleInput } from '../store/store-inputs.js';

const target = (name: string): TargetRef => ({
  name,
  flavor: 'mariadb',
  version: '10.11.9',
  binary: '/usr/sbin/mariadbd',
  serverProfile: name,
  description: {},
});

const session: SessionRecord = {
  id: 3,
  kind: 'compare',
  hostId: 1,
  state: 'done',
  baseline: target('relaxed'),
  candidate: target('durable'),
  suite: 'quick',
  rounds: 21,
  pid: 1,
  pidStartTicks: null,
  settings: { design: 'paired' },
  error: null,
  startedAt: '2026-12-01T06:00:00.000Z',
  endedAt: '2026-12-01T06:10:00.000Z',
};

/**
 * 21 sweeps of two tests: update-index is half as fast on C and decided at the first look (8 pairs), while
 * point-query keeps the session going. C's writes per operation grow 4 times in the first 8 sweeps and 10 times in
 * the later ones: a hint of the first 8 pairs and a table of all 21 would disagree (issue 33's x148.07 and x85.81).
 */
function samples(): SampleRecord[] {
  let id = 0;
  const out: SampleRecord[] = [];
  for (let round = 1; round <= 21; round++) {
    for (const role of ['baseline', 'candidate'] as const) {
      const jitter = 1 + ((round * 7) % 5) / 100;
      const late = round > 8;
      const write = role === 'baseline' ? 0.2 : late ? 2 : 0.8;
      const cpu = role === 'baseline' ? 0.01 : late ? 0.05 : 0.03;
      for (const [test, qps] of [
        ['update-index', role === 'baseline' ? 5000 * jitter : 2500 / jitter],
        ['point-query', 7000 * (role === 'baseline' ? jitter : 2 - jitter)],
      ] as const) {
        const { host, ...rest } = sampleInput({
          round,
          role,
          test,
          threads: 1,
          qps,
          writeKBPerOp: test === 'update-index' ? write * jitter : 0.01,
          cpuPerOp: test === 'update-index' ? cpu : 0.01,
          cpuMicrosPerOp: test === 'update-index' ? cpu * 2e4 : 200,
          dbCounters: {},
        });
        out.push({ ...rest, host: host as Record<string, unknown>, id: ++id, sessionId: 3, createdAt: '' });
      }
    }
  }
  return out;
}

describe('one source for every figure', () => {
  const all = samples();
  const verdicts = judgePairedSession(all, { threshold: 0.9, testThresholds: {}, alpha: 0.05, maxPairs: 21 }).verdicts;
  const view = compareSession(session, all, {}, verdicts);
  const row = view.tests.find((t) => t.test === 'update-index')!;

  test('the test is decided at the first look, and more pairs were measured after', () => {
    assert.equal(row.verdict?.kind, 'regression');
    assert.equal(row.verdict?.pairs, 8);
    assert.equal(all.filter((s) => s.test === 'update-index' && s.role === 'baseline').length, 21);
  });

  test('every figure of the hint equals the per-op table, as numbers and as printed', () => {
    const hint = row.verdict!.hint;
    assert.ok(hint.length >= 2, JSON.stringify(hint));
    const text = renderComparison(view, 'text');
    const table = text.slice(text.indexOf('Per operation: update-index.t1'));
    const lines = table.split('\n');
    const header = lines
      .find((l) => l.startsWith('role'))!
      .trim()
      .split(/\s+/);
    const relative = lines
      .find((l) => l.startsWith('C/B'))!
      .trim()
      .split(/\s+/);
    for (const figure of hint) {
      const column = header.indexOf(figure.metric);
      assert.ok(column > 0, `${figure.metric} is a column of the per-op table`);
      const side = (s: typeof row.baseline): number => Number(s.perOp[figureField(figure.metric)] ?? Number.NaN);
      assert.equal(side(row.baseline), figure.baseline, `${figure.metric}: B`);
      assert.equal(side(row.candidate), figure.candidate, `${figure.metric}: C`);
      assert.match(text, new RegExp(`${escape(figure.metric)} x${escape(relative[column]!)}`), figure.metric);
    }
  });

  test('the QPS table shows the pairs of the verdict too', () => {
    assert.equal(row.baseline.samples, 8);
    assert.equal(row.candidate.samples, 8);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The per-op field a hint's metric names (its table header). */
function figureField(metric: string): 'writeKBPerOp' | 'cpuPerOp' | 'cpuMicrosPerOp' | 'csPerOp' {
  const fields: Record<string, 'writeKBPerOp' | 'cpuPerOp' | 'cpuMicrosPerOp' | 'csPerOp'> = {
    'wKB/o': 'writeKBPerOp',
    'cpu/o': 'cpuPerOp',
    'cpuµs/o': 'cpuMicrosPerOp',
    'cs/o': 'csPerOp',
  };
  return fields[metric]!;
}
