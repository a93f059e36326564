import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildHistory,
  checkStanding,
  planEvents,
  selectLastGood,
  type ReleaseSampleRecord,
} from '../../../src/analysis/index.js';
import { isConclusive, verdictKinds, type Verdict, type VerdictKind } from '../../../src/model/index.js';
import type {
  CheckRecord,
  EventRecord,
  ImportedResultRecord,
  ReleaseRecord,
  TriageRecord,
} from '../../../src/store/index.js';

const key = (v: string): string =>
  v
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');
const release = (id: number, version: string): ReleaseRecord => ({
  id,
  upstream: 'demo',
  flavor: 'mariadb',
  tag: `mariadb-${version}`,
  commit: 'a'.repeat(40),
  version,
  versionKey: key(version),
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  movedFrom: null,
  movedAt: null,
});
const releases = [
  release(1, '10.11.1'),
  release(2, '10.11.2'),
  release(3, '10.11.3'),
  release(9, '10.11.9'),
  release(10, '10.11.10'),
];
const check = (
  sessionId: number,
  releaseId: number,
  outcome: CheckRecord['outcome'],
  invalid = false,
  conclusive = outcome === 'ok',
): CheckRecord => ({
  sessionId,
  releaseId,
  baselineReleaseId: 1,
  outcome,
  conclusive,
  invalid,
  judgedAt: '2026-01-01T00:00:00.000Z',
});
const accept = (releaseId: number): TriageRecord => ({
  id: releaseId,
  releaseId,
  action: 'accept',
  test: null,
  threads: null,
  who: 'ana',
  reason: '',
  at: '2026-01-01T00:00:00.000Z',
});

describe('selectLastGood', () => {
  const cases: Array<[string, CheckRecord[], TriageRecord[], ReleaseRecord | undefined, string | undefined]> = [
    ['nothing checked or accepted: none', [], [], undefined, undefined],
    ['an accepted first release', [], [accept(1)], undefined, '10.11.1'],
    [
      'the newest ok release, in version order (10.11.10 after 10.11.9)',
      [check(1, 9, 'ok'), check(2, 10, 'ok'), check(3, 2, 'ok')],
      [],
      undefined,
      '10.11.10',
    ],
    ['a regressed release is skipped', [check(1, 2, 'ok'), check(2, 3, 'regression')], [], undefined, '10.11.2'],
    ['an invalid ok check does not count', [check(1, 2, 'ok'), check(2, 3, 'ok', true)], [], undefined, '10.11.2'],
    [
      'the newest valid check decides: ok then regression is not good',
      [check(1, 3, 'ok'), check(2, 3, 'regression')],
      [accept(1)],
      undefined,
      '10.11.1',
    ],
    ['an accepted regression is good (the new normal)', [check(1, 3, 'regression')], [accept(3)], undefined, '10.11.3'],
    [
      'an ok check with an inconclusive drop does not make a release good',
      [check(1, 2, 'ok'), check(2, 3, 'ok', false, false)],
      [],
      undefined,
      '10.11.2',
    ],
    ['below a release: only older ones', [check(1, 2, 'ok'), check(2, 9, 'ok')], [], release(9, '10.11.9'), '10.11.2'],
  ];
  for (const [name, checks, triage, below, expected] of cases) {
    test(name, () => assert.equal(selectLastGood(releases, checks, triage, below)?.release.version, expected));
  }
  test('says why: ok or accepted', () => {
    assert.equal(selectLastGood(releases, [check(1, 2, 'ok')], [])?.reason, 'ok');
    assert.equal(selectLastGood(releases, [], [accept(1)])?.reason, 'accepted');
  });
});

describe('the rule of last good: a check is conclusive only when every test is ok or improvement', () => {
  const cases: Array<[string, VerdictKind[], boolean]> = [
    ['every test ok', ['ok', 'ok'], true],
    ['ok and improvement', ['ok', 'improvement'], true],
    ['one unstable test, whatever its estimate', ['ok', 'unstable'], false],
    ['one slower test', ['ok', 'slower', 'improvement'], false],
    ['a regression', ['regression', 'ok'], false],
  ];
  for (const [name, kinds, expected] of cases) test(name, () => assert.equal(isConclusive(kinds), expected));

  test('every kind is either conclusive or not, and only ok and improvement are', () => {
    assert.deepEqual(
      verdictKinds.filter((k) => isConclusive([k])),
      ['ok', 'improvement'],
    );
  });

  test(
    'a release whose tests are ok but one unstable at an estimate over the ' + 'threshold does not become last good',
    () => {
      const undecided = { ...verdict('point', 'unstable'), relativeQps: 0.97, low: 0.9, high: 1.04 };
      assert.ok(undecided.relativeQps >= undecided.threshold, 'the old rule called this conclusive');
      const kinds = [verdict('insert', 'ok'), verdict('update', 'ok'), undecided].map((v) => v.kind);
      const checks = [check(1, 2, 'ok'), check(2, 3, 'ok', false, isConclusive(kinds))];
      assert.equal(selectLastGood(releases, checks, [])?.release.version, '10.11.2');
      assert.equal(
        selectLastGood(releases, checks, [accept(3)])?.release.version,
        '10.11.3',
        'unless a person accepts it',
      );
    },
  );

  test('how a check stands: regression, inconclusive (no regression, a test undecided or slower) or ok', () => {
    assert.equal(checkStanding({ outcome: 'regression', conclusive: false }), 'regression');
    assert.equal(checkStanding({ outcome: 'ok', conclusive: false }), 'inconclusive');
    assert.equal(checkStanding({ outcome: 'ok', conclusive: true }), 'ok');
  });
});

const verdict = (test: string, kind: Verdict['kind']): Verdict => ({
  test,
  threads: 1,
  kind,
  relativeQps: kind === 'regression' ? 0.5 : 1,
  threshold: 0.95,
  pSlower: 0.01,
  pFaster: 1,
  baselineSpread: 0.01,
  low: 0.97,
  high: 1.03,
  confidence: 0.95,
  detectableDrop: 0.05,
  pairs: 8,
  noise: 0.03,
  hint: [],
});
const event = (id: number, test: string): EventRecord => ({
  id,
  upstream: 'demo',
  test,
  threads: 1,
  kind: 'regression',
  releaseId: 3,
  baselineReleaseId: 1,
  sessionId: 7,
  relativeQps: 0.5,
  state: 'open',
  acked: false,
  openedAt: '2026-01-01T00:00:00.000Z',
  closedAt: null,
  closedByReleaseId: null,
});

describe('planEvents', () => {
  test(
    'a new regression opens, a known one continues, an ok or faster test ' +
      'fixes, an unstable or slower one does nothing',
    () => {
      const plan = planEvents(
        [
          verdict('insert', 'regression'),
          verdict('update', 'regression'),
          verdict('delete', 'ok'),
          verdict('scan', 'improvement'),
          verdict('point', 'unstable'),
          verdict('range', 'slower'),
          verdict('sum', 'slower'),
        ],
        [event(1, 'update'), event(2, 'delete'), event(3, 'scan'), event(4, 'point'), event(5, 'range')],
      );
      assert.deepEqual(
        plan.opened.map((v) => v.test),
        ['insert'],
      );
      assert.deepEqual(
        plan.continuing.map((v) => v.test),
        ['update'],
      );
      assert.deepEqual(
        plan.fixed.map((e) => e.id),
        [2, 3],
      );
    },
  );
});

describe('buildHistory', () => {
  const sample = (
    releaseId: number,
    test: string,
    qps: number,
    writeKBPerOp: number,
    sessionId = 1,
  ): ReleaseSampleRecord => ({
    sessionId,
    hostId: 1,
    releaseId,
    test,
    threads: 1,
    qps,
    cpuPerOp: 0.001,
    csPerOp: 2,
    readsPerOp: 0,
    readKBPerOp: 0,
    writeKBPerOp,
  });
  const imported: ImportedResultRecord = {
    id: 1,
    flavor: 'mariadb',
    version: '10.11.0',
    versionKey: key('10.11.0'),
    test: 'update',
    threads: 1,
    qps: 800,
    cpuPerOp: 0.002,
    csPerOp: 3,
    readsPerOp: 0,
    readKBPerOp: 0,
    writeKBPerOp: 1,
    source: 'old.csv',
    importedAt: '2026-01-01T00:00:00.000Z',
  };

  test('medians per release and test, imported versions in version order, gaps as null', () => {
    const table = buildHistory(
      releases,
      [
        sample(1, 'update', 1000, 0.5),
        sample(1, 'update', 1200, 0.7),
        sample(1, 'update', 900, 0.4),
        sample(3, 'update', 300, 14),
        sample(3, 'point', 5000, 0),
      ],
      [imported],
    );
    assert.deepEqual(
      table.columns.map((c) => [c.version, c.label, c.imported]),
      [
        ['10.11.0', '10.11.0', true],
        ['10.11.1', 'mariadb-10.11.1', false],
        ['10.11.3', 'mariadb-10.11.3', false],
      ],
    );
    const update = table.rows.find((r) => r.test === 'update')!;
    assert.deepEqual(
      update.figures.map((f) => f?.qps),
      [800, 1000, 300],
    );
    assert.deepEqual(
      update.figures.map((f) => f?.writeKBPerOp),
      [1, 0.5, 14],
    );
    const point = table.rows.find((r) => r.test === 'point')!;
    assert.deepEqual(
      point.figures.map((f) => f?.qps ?? null),
      [null, null, 5000],
    );
  });

  test('a version measured here wins over an imported row of the same version', () => {
    const table = buildHistory(
      releases,
      [sample(1, 'update', 1000, 0.5)],
      [{ ...imported, version: '10.11.1', versionKey: key('10.11.1') }],
    );
    assert.deepEqual(
      table.columns.map((c) => [c.version, c.imported]),
      [['10.11.1', false]],
    );
    assert.equal(table.rows[0]?.figures[0]?.qps, 1000);
  });

  test(
    "each measured version carries its check's detectable drop per test; " +
      'imports, unchecked versions and old verdicts have none',
    () => {
      const table = buildHistory(
        releases,
        [sample(1, 'update', 1000, 0.5), sample(3, 'update', 300, 14), sample(3, 'point', 5000, 0)],
        [imported],
        [
          { releaseId: 1, verdicts: [{ test: 'update', threads: 1, detectableDrop: null }] },
          {
            releaseId: 3,
            verdicts: [
              { test: 'update', threads: 1, detectableDrop: 0.06 },
              { test: 'point', threads: 1, detectableDrop: 0.03 },
              { test: 'point', threads: 8, detectableDrop: 0.5 },
            ],
          },
          { releaseId: 99, verdicts: [{ test: 'update', threads: 1, detectableDrop: 0.2 }] },
        ],
      );
      assert.deepEqual(
        table.columns.map((c) => c.version),
        ['10.11.0', '10.11.1', '10.11.3'],
      );
      assert.deepEqual(table.rows.find((r) => r.test === 'update')!.detectableDrop, [null, null, 0.06]);
      assert.deepEqual(table.rows.find((r) => r.test === 'point')!.detectableDrop, [null, null, 0.03]);
    },
  );
});
