import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  baseIndex,
  buildHistory,
  groupReleaseSides,
  hostReleaseKey,
  newestChecksOnHosts,
  newestReleases,
  newestValidChecks,
  releaseSamplesOf,
  releaseSides,
  seriesBases,
  seriesReleaseFigures,
  type MeasuredSide,
  type ReleaseGroup,
  type SampleFigureLists,
} from '../../../src/analysis/index.js';
import { testIdOf, testKey, testLabel, type SampleRole } from '../../../src/model/index.js';
import type { CheckRecord, ReleaseRecord, SessionRecord } from '../../../src/store/index.js';

const key = (v: string): string =>
  v
    .split('.')
    .map((p) => p.padStart(3, '0'))
    .join('.');
const release = (id: number, version: string, upstream = 'mariadb-10.11'): ReleaseRecord => ({
  id,
  upstream,
  flavor: 'mariadb',
  tag: `mariadb-${version}`,
  commit: 'a'.repeat(40),
  version,
  versionKey: key(version),
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  movedFrom: null,
  movedAt: null,
});
const r2 = release(2, '10.11.2');
const r3 = release(3, '10.11.3');
const r10 = release(10, '10.11.10');

const ref = (tag: string, upstream = 'mariadb-10.11', kind = 'release') => ({
  name: tag,
  flavor: 'mariadb',
  version: tag,
  binary: '/b',
  serverProfile: 'small',
  description: { kind, upstream, tag },
});
const session = (
  id: number,
  baseline: ReturnType<typeof ref>,
  candidate: ReturnType<typeof ref>,
  hostId = 1,
): SessionRecord => ({
  id,
  kind: 'compare',
  hostId,
  state: 'done',
  baseline,
  candidate,
  suite: 'quick',
  rounds: 2,
  pid: 1,
  pidStartTicks: null,
  settings: {},
  error: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T01:00:00.000Z',
});
const check = (sessionId: number, releaseId: number, invalid = false): CheckRecord => ({
  sessionId,
  releaseId,
  baselineReleaseId: 2,
  outcome: 'ok',
  conclusive: true,
  invalid,
  judgedAt: '2026-01-01T00:00:00.000Z',
});

describe('newestValidChecks', () => {
  test('an invalid check never counts; of the rest the newest session speaks, whatever the order given', () => {
    const newest = newestValidChecks([check(5, 3), check(2, 3), check(7, 3, true), check(4, 2)], (c) => c.releaseId);
    assert.deepEqual(
      [...newest].map(([k, c]) => [k, c.sessionId]),
      [
        [3, 5],
        [2, 4],
      ],
    );
  });

  test('a check whose key is undefined is left out; keys keep the order first seen', () => {
    const newest = newestValidChecks([check(1, 9), check(2, 3), check(3, 2), check(4, 3)], (c) =>
      c.releaseId === 9 ? undefined : `r${c.releaseId}`,
    );
    assert.deepEqual(
      [...newest].map(([k, c]) => [k, c.sessionId]),
      [
        ['r3', 4],
        ['r2', 3],
      ],
    );
  });
});

describe('releaseSamplesOf: the one rule of which samples count, for history and /metrics', () => {
  const lists = (qps: number[], writeKBPerOp: number[], offCpu?: number[]): SampleFigureLists => ({
    qps,
    cpuPerOp: qps.map(() => 0.001),
    csPerOp: qps.map(() => 2),
    readsPerOp: qps.map(() => 0),
    readKBPerOp: qps.map(() => 0),
    writeKBPerOp,
    latencyP95Ms: qps.map(() => 1),
    ...(offCpu !== undefined ? { offCpuMicrosPerOp: offCpu } : {}),
  });
  const sessions = [
    session(2, ref('mariadb-10.11.3'), ref('mariadb-10.11.10')),
    { ...session(1, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')), settings: { memory: 'io-bound' } },
    session(3, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')),
  ];
  const measured = (checks: CheckRecord[]): MeasuredSide[] =>
    releaseSides('mariadb-10.11', [r2, r3, r10], sessions, checks).map((side) => ({
      ...side,
      tests: [
        {
          test: 'update',
          threads: 1,
          figures: lists([side.session.id * 100, side.session.id * 100 + 1], [0.5, 0.6], [Number.NaN, 7]),
        },
      ],
    }));

  test('one record per run of each side that counts, in session, release, test order', () => {
    const samples = releaseSamplesOf(measured([check(3, 3, true)]));
    assert.deepEqual(
      samples.map((s) => [s.sessionId, s.releaseId, s.qps, s.writeKBPerOp, s.memory ?? 'none']),
      [
        [1, 2, 100, 0.5, 'io-bound'],
        [1, 2, 101, 0.6, 'io-bound'],
        [1, 3, 100, 0.5, 'io-bound'],
        [1, 3, 101, 0.6, 'io-bound'],
        [2, 3, 200, 0.5, 'none'],
        [2, 3, 201, 0.6, 'none'],
        [2, 10, 200, 0.5, 'none'],
        [2, 10, 201, 0.6, 'none'],
      ],
      'session 3 (its check marked invalid) counts nowhere',
    );
  });

  test('a figure a sample lacks (NaN: stored before the figure existed) is left out of its record', () => {
    const [first, second] = releaseSamplesOf(measured([]));
    assert.equal('offCpuMicrosPerOp' in first!, false);
    assert.equal(second!.offCpuMicrosPerOp, 7);
  });
});

describe('releaseSides', () => {
  test('both sides of each done session that ran a release of the series, matched by upstream and tag', () => {
    const sessions = [
      session(1, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')),
      session(2, ref('mariadb-10.11.3', 'other-series'), ref('mariadb-10.11.10')),
      session(3, ref('mariadb-10.11.2', 'mariadb-10.11', 'tarball'), ref('mariadb-10.11.99')),
    ];
    const sides = releaseSides('mariadb-10.11', [r2, r3, r10], sessions, []);
    assert.deepEqual(
      sides.map((s) => [s.session.id, s.role, s.release.id]),
      [
        [1, 'baseline', 2],
        [1, 'candidate', 3],
        [2, 'candidate', 10],
      ],
    );
  });

  test('the sessions of checks marked invalid count nowhere', () => {
    const sessions = [
      session(1, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')),
      session(2, ref('mariadb-10.11.3'), ref('mariadb-10.11.10')),
    ];
    const sides = releaseSides('mariadb-10.11', [r2, r3, r10], sessions, [check(1, 3), check(2, 10, true)]);
    assert.deepEqual(
      sides.map((s) => s.session.id),
      [1, 1],
    );
  });

  test("a bisection step's session counts nowhere: its good release ran the regressed tests only", () => {
    const sessions = [
      session(1, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')),
      {
        ...session(2, ref('mariadb-10.11.2'), ref('bisect-44a2ebd0269c', undefined, 'installed')),
        settings: { purpose: 'bisect' },
      },
    ];
    const sides = releaseSides('mariadb-10.11', [r2, r3, r10], sessions, []);
    assert.deepEqual(
      sides.map((s) => [s.session.id, s.role]),
      [
        [1, 'baseline'],
        [1, 'candidate'],
      ],
    );
  });

  test(
    'sessions run under a memory setting count, and their tests keep the ' +
      'setting apart from the same tests without one',
    () => {
      const ioBound = {
        ...session(2, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')),
        settings: { memory: 'io-bound' },
      };
      const sides = releaseSides(
        'mariadb-10.11',
        [r2, r3, r10],
        [session(1, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')), ioBound],
        [],
      );
      assert.deepEqual(
        sides.map((s) => s.session.id),
        [1, 1, 2, 2],
      );
      const figures = (qps: number) => ({ qps: [qps] }) as unknown as SampleFigureLists;
      const groups = groupReleaseSides(
        sides.map((side) => ({
          ...side,
          tests: [{ test: 'point-query', threads: 1, figures: figures(side.session.id === 2 ? 100 : 1000) }],
        })),
      );
      assert.deepEqual(
        [...groups.values()].map((g) => [g.release.id, g.memory ?? 'none', g.parts.length]),
        [
          [2, 'none', 1],
          [3, 'none', 1],
          [2, 'io-bound', 1],
          [3, 'io-bound', 1],
        ],
      );
    },
  );
});

describe('newestReleases', () => {
  test('by version key, never by tag text: 10.11.10 is newer than 10.11.3; each release once', () => {
    assert.deepEqual([...newestReleases([r2, r10, r3, r10], 2)].sort(), [10, 3]);
    assert.deepEqual([...newestReleases([r2], 5)], [2]);
  });
});

describe('baseIndex', () => {
  const items = [
    { versionKey: key('10.11.3'), version: '10.11.3' },
    { versionKey: key('10.11.10'), version: '10.11.10' },
    { versionKey: key('10.11.2'), version: '10.11.2' },
  ];
  const cases: Array<[string, ((i: (typeof items)[number]) => boolean) | undefined, number]> = [
    ['none named: the oldest version', undefined, 2],
    ['the one named', (i) => i.version === '10.11.10', 1],
    ['named but without results: -1', (i) => i.version === '10.11.9', -1],
  ];
  for (const [name, named, expected] of cases) test(name, () => assert.equal(baseIndex(items, named), expected));
  test('nothing measured: -1', () => assert.equal(baseIndex([]), -1));
});

describe('newestChecksOnHosts', () => {
  test("each release's newest valid check per host, only for the releases kept", () => {
    const sessions = [
      session(1, ref('a'), ref('b'), 1),
      session(2, ref('a'), ref('b'), 2),
      session(3, ref('a'), ref('b'), 1),
      session(4, ref('a'), ref('b'), 1),
    ];
    const newest = newestChecksOnHosts(
      [check(1, 3), check(2, 3), check(3, 3), check(4, 3, true), check(1, 2), check(9, 3)],
      sessions,
      new Set([3]),
    );
    assert.deepEqual(
      [...newest].map(([k, c]) => [k, c.sessionId]),
      [
        [hostReleaseKey(1, 3), 3],
        [hostReleaseKey(2, 3), 2],
      ],
    );
  });
});

describe('seriesReleaseFigures', () => {
  const lists = (qps: number[], writeKBPerOp = 1, latencyP95Ms = 5): SampleFigureLists => {
    const each = (value: number): number[] => qps.map(() => value);
    return {
      qps,
      cpuPerOp: each(0.01),
      csPerOp: each(2),
      readsPerOp: each(0),
      readKBPerOp: each(0),
      writeKBPerOp: each(writeKBPerOp),
      latencyP95Ms: each(latencyP95Ms),
    };
  };
  const side = (
    sessionId: number,
    role: SampleRole,
    rel: ReleaseRecord,
    tests: Record<string, SampleFigureLists>,
    hostId = 1,
  ): MeasuredSide => ({
    session: session(sessionId, ref('x'), ref('y'), hostId),
    role,
    release: rel,
    tests: Object.entries(tests).map(([test, figures]) => ({ test, threads: 1, figures })),
  });
  // 10.11.3 is the candidate of session 1 and the baseline of session 2: both count.
  const measured = (): MeasuredSide[] => [
    side(1, 'baseline', r2, { update: lists([1000, 1100]), idle: lists([0, 0]) }),
    side(1, 'candidate', r3, { update: lists([900, 1000], 2), idle: lists([0, 0]) }),
    side(2, 'baseline', r3, { update: lists([950, 1200], 4) }),
    side(2, 'candidate', r10, { update: lists([800, 800]) }),
    side(3, 'candidate', r10, { update: lists([500, 500]) }, 2),
  ];
  const figure = (rows: ReturnType<typeof seriesReleaseFigures>, version: string, test = 'update', hostId = 1) =>
    rows.find((r) => r.release.version === version && r.test === test && r.hostId === hostId);

  test('medians over every side of a version on a host, relative to the oldest version there; 0/0 is 1', () => {
    const rows = seriesReleaseFigures({ groups: groupReleaseSides(measured()) });
    assert.deepEqual(
      rows.map((r) => [r.hostId, r.release.version, r.test]),
      [
        [1, '10.11.2', 'update'],
        [1, '10.11.2', 'idle'],
        [1, '10.11.3', 'update'],
        [1, '10.11.3', 'idle'],
        [1, '10.11.10', 'update'],
        [2, '10.11.10', 'update'],
      ],
    );
    assert.equal(figure(rows, '10.11.3')?.figures.qps, 975);
    assert.equal(figure(rows, '10.11.3')?.figures.writeKBPerOp, 3);
    assert.equal(figure(rows, '10.11.3')?.figures.latencyP95Ms, 5);
    assert.equal(figure(rows, '10.11.2')?.relativeQps, 1);
    assert.equal(figure(rows, '10.11.3')?.relativeQps, 975 / 1050);
    assert.equal(figure(rows, '10.11.3', 'idle')?.relativeQps, 1);
    // Host 2 measured only 10.11.10: it is its own base there; results of hosts are never mixed.
    assert.equal(figure(rows, '10.11.10', 'update', 2)?.relativeQps, 1);
    assert.equal(figure(rows, '10.11.10', 'update', 2)?.figures.qps, 500);
  });

  test('a named base anchors the ratios; a host that did not measure it has none', () => {
    const rows = seriesReleaseFigures({ groups: groupReleaseSides(measured()), base: '10.11.3' });
    assert.equal(figure(rows, '10.11.3')?.relativeQps, 1);
    assert.equal(figure(rows, '10.11.2')?.relativeQps, 1050 / 975);
    assert.equal(figure(rows, '10.11.3', 'idle')?.relativeQps, 1);
    assert.equal(figure(rows, '10.11.10', 'update', 2)?.relativeQps, null);
  });

  test('only kept releases are given; a base left out still anchors the ratio', () => {
    const rows = seriesReleaseFigures({ groups: groupReleaseSides(measured()), kept: new Set([10]) });
    assert.deepEqual(
      rows.map((r) => [r.hostId, r.release.version]),
      [
        [1, '10.11.10'],
        [2, '10.11.10'],
      ],
    );
    assert.equal(figure(rows, '10.11.10')?.relativeQps, 800 / 1050);
  });

  test("the newest check's relative QPS, detectable drop and verdict per test, and open regression events", () => {
    const rows = seriesReleaseFigures({
      groups: groupReleaseSides(measured()),
      checked: new Map([
        [
          hostReleaseKey(1, 3),
          [
            { test: 'update', threads: 1, kind: 'slower', relativeQps: 0.96, detectableDrop: null },
            { test: 'idle', threads: 1, kind: 'ok', relativeQps: 1, detectableDrop: 0.04 },
          ],
        ],
      ]),
      open: [{ releaseId: 3, test: 'update', threads: 1 }],
    });
    assert.deepEqual(
      [
        figure(rows, '10.11.3')?.relativeToLastGood,
        figure(rows, '10.11.3')?.detectableDrop,
        figure(rows, '10.11.3')?.regressionOpen,
      ],
      [0.96, null, true],
    );
    assert.deepEqual(
      [
        figure(rows, '10.11.3', 'idle')?.relativeToLastGood,
        figure(rows, '10.11.3', 'idle')?.detectableDrop,
        figure(rows, '10.11.3', 'idle')?.regressionOpen,
      ],
      [1, 0.04, false],
    );
    assert.deepEqual(
      [figure(rows, '10.11.2')?.relativeToLastGood, figure(rows, '10.11.2')?.detectableDrop],
      [null, null],
    );
    assert.deepEqual(
      ['10.11.3', '10.11.2'].map((v) => figure(rows, v)?.verdict),
      ['slower', null],
    );
    // The check was on host 1: host 2's figures of the same release are not its.
    assert.equal(figure(rows, '10.11.3', 'update', 2), undefined);
  });

  test('the medians come from mediansOf when given (a memo), for the row and for its base', () => {
    const asked: string[] = [];
    const groups = groupReleaseSides(measured());
    seriesReleaseFigures({
      groups,
      kept: new Set([10]),
      mediansOf: (g: ReleaseGroup) => {
        asked.push(`${g.hostId} ${g.release.version} ${g.test} ${g.signature}`);
        return { qps: 1, cpuPerOp: 0, csPerOp: 0, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 0, latencyP95Ms: 0 };
      },
    });
    // Host 2's only version is its own base: asked as the row and as the base.
    assert.deepEqual(asked, [
      '1 10.11.10 update 2c',
      '1 10.11.2 update 1b',
      '2 10.11.10 update 3c',
      '2 10.11.10 update 3c',
    ]);
  });
});

describe('the memory setting as a dimension', () => {
  const figures = { qps: 1000, cpuPerOp: 0.001, csPerOp: 2, readsPerOp: 0, readKBPerOp: 0, writeKBPerOp: 0.1 };
  const sample = (releaseId: number, memory?: 'cached' | 'io-bound') => ({
    sessionId: 1,
    hostId: 1,
    releaseId,
    test: 'point-query',
    threads: 1,
    ...figures,
    ...(memory !== undefined ? { memory } : {}),
  });
  const importedRow = (version: string) => ({
    id: 1,
    source: 'old.csv',
    importedAt: '2026-01-01T00:00:00.000Z',
    flavor: 'mariadb',
    version,
    versionKey: key(version),
    test: 'point-query',
    threads: 1,
    ...figures,
    qps: 900,
  });

  test('keys and labels: a test with a setting is another test than the same one without', () => {
    assert.notEqual(
      testKey({ test: 'point-query', threads: 1 }),
      testKey({ test: 'point-query', threads: 1, memory: 'cached' }),
    );
    assert.equal(testLabel({ test: 'point-query', threads: 1 }), 'point-query.t1');
    assert.equal(testLabel({ test: 'point-query', threads: 1, memory: 'io-bound' }), 'point-query.t1.io-bound');
    assert.deepEqual(testIdOf({ test: 'a', threads: 2, memory: 'cached', qps: 1 } as never), {
      test: 'a',
      threads: 2,
      memory: 'cached',
    });
    assert.deepEqual(Object.keys(testIdOf({ test: 'a', threads: 2 })), ['test', 'threads']);
  });

  test('history: a row per setting; an import of a version measured only under a setting is kept', () => {
    const table = buildHistory(
      [r2, r3],
      [sample(2), sample(2, 'io-bound'), sample(3, 'io-bound')],
      [importedRow('10.11.3')],
    );
    assert.deepEqual(
      table.columns.map((c) => [c.version, c.imported]),
      [
        ['10.11.2', false],
        ['10.11.3', false],
      ],
    );
    assert.deepEqual(
      table.rows.map((r) => [r.memory ?? 'none', r.figures.map((f) => f?.qps ?? null)]),
      [
        ['none', [1000, 900]],
        ['io-bound', [1000, 1000]],
      ],
    );
  });

  test(
    'metrics: without a named base, the oldest release measured without a ' +
      'setting is the base, not an older one under --memory',
    () => {
      const plain = { ...session(1, ref('mariadb-10.11.3'), ref('mariadb-10.11.10')) };
      const ioBound = {
        ...session(2, ref('mariadb-10.11.2'), ref('mariadb-10.11.3')),
        settings: { memory: 'io-bound' },
      };
      const sides = releaseSides('mariadb-10.11', [r2, r3, r10], [plain, ioBound], []);
      const groups = groupReleaseSides(
        sides.map((side) => ({
          ...side,
          tests: [{ test: 'point-query', threads: 1, figures: { qps: [1000] } as unknown as SampleFigureLists }],
        })),
      );
      assert.equal(seriesBases(groups, undefined).get(1)?.version, '10.11.3');
      assert.equal(seriesBases(groups, '10.11.2').get(1)?.version, '10.11.2');
      const onlyIoBound = groupReleaseSides(
        releaseSides('mariadb-10.11', [r2, r3], [ioBound], []).map((side) => ({
          ...side,
          tests: [{ test: 'point-query', threads: 1, figures: { qps: [1000] } as unknown as SampleFigureLists }],
        })),
      );
      assert.equal(seriesBases(onlyIoBound, undefined).get(1)?.version, '10.11.2');
    },
  );
});
