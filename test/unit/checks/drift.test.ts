import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { driftLine } from '../../../src/cli/check-command.js';
import type { Verdict } from '../../../src/model/index.js';
import {
  acceptedReference,
  chainChecks,
  chainedSeries,
  confirmedDrifts,
  reanchorDue,
  seriesBase,
  stepsByTest,
  suspectedDrifts,
  type CheckResult,
} from '../../../src/checks/index.js';
import type { CheckRecord, ReleaseRecord, TriageRecord } from '../../../src/store/index.js';
import { parseVersion, versionKey } from '../../../src/version/index.js';
import { rowVerdict, sampleView } from '../report/sample-view.js';

/**
 * The decisions of drift against the base, on fakes of the stored releases, checks and verdicts: which release is
 * the base, which checks the chain is built from, when a check needs a confirming session, what the direct session
 * confirms, and when reanchor_every sends a check to the base.
 */
const release = (id: number, patch: number): ReleaseRecord => {
  const version = `10.11.${patch}`;
  return {
    id,
    upstream: 'demo',
    flavor: 'mariadb',
    tag: `mariadb-${version}`,
    commit: 'a'.repeat(40),
    version,
    versionKey: versionKey(parseVersion(version)),
    firstSeenAt: '2026-01-01T00:00:00.000Z',
    movedFrom: null,
    movedAt: null,
  };
};
// Release ids 1..6 are 10.11.1..10.11.6; 10.11.10 sorts after 10.11.9 by its key, not its text.
const releases = [1, 2, 3, 4, 5, 6, 10].map((p) => release(p, p));
const tagOf = new Map(releases.map((r) => [r.id, r.tag]));
const byPatch = (p: number): ReleaseRecord => releases.find((r) => r.id === p)!;

let session = 0;
const check = (releaseId: number, baselineReleaseId: number, over: Partial<CheckRecord> = {}): CheckRecord => ({
  sessionId: ++session,
  releaseId,
  baselineReleaseId,
  outcome: 'ok',
  conclusive: true,
  invalid: false,
  judgedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

const verdict = (kind: Verdict['kind'], relativeQps: number, over: Partial<Verdict> = {}): Verdict => ({
  test: 'update-index',
  threads: 1,
  relativeQps,
  logSe: 0.01,
  ...rowVerdict(kind),
  ...over,
});

/** A straight chain 2->1, 3->2, ... each at `ratio`, with its verdicts. */
function chain(upTo: number, ratio: number): { checks: CheckRecord[]; verdicts: Map<number, Verdict[]> } {
  const checks: CheckRecord[] = [];
  const verdicts = new Map<number, Verdict[]>();
  for (let p = 2; p <= upTo; p += 1) {
    const c = check(p, p - 1);
    checks.push(c);
    verdicts.set(c.sessionId, [verdict('ok', ratio)]);
  }
  return { checks, verdicts };
}

describe('the series base', () => {
  test("the upstream's base: when set, found by version", () => {
    assert.equal(seriesBase({ base: parseVersion('10.11.3') }, releases, [])?.tag, 'mariadb-10.11.3');
    assert.equal(
      seriesBase({ base: parseVersion('10.11.9') }, releases, []),
      undefined,
      'named but not among the releases',
    );
  });

  test('else the oldest release a valid check measured, in version order', () => {
    const checks = [check(4, 3), check(3, 2, { invalid: true }), check(10, 4)];
    assert.equal(
      seriesBase({}, releases, checks)?.tag,
      'mariadb-10.11.3',
      'the invalid check of 3 against 2 does not count',
    );
    assert.equal(seriesBase({}, releases, []), undefined, 'nothing checked yet: no base');
  });
});

describe('the chain a check is judged by', () => {
  test('per release its newest valid check, and its newest direct check against the base beside it', () => {
    const old = check(3, 2);
    const direct = check(3, 1);
    const newer = check(3, 2);
    const invalid = check(3, 2, { invalid: true });
    const used = chainChecks([old, direct, newer, invalid], 1);
    assert.deepEqual(used.map((c) => c.sessionId).sort(), [direct.sessionId, newer.sessionId].sort());
  });

  test('verdicts without a standard error are no step: the chain breaks there', () => {
    const { checks, verdicts } = chain(4, 0.97);
    verdicts.set(checks[1]!.sessionId, [verdict('ok', 0.97, { logSe: null })]);
    const steps = stepsByTest(checks, verdicts, tagOf).get('update-index\u00001')!;
    assert.deepEqual(
      steps.map((s) => s.release),
      ['mariadb-10.11.2', 'mariadb-10.11.4'],
    );
    assert.ok(Math.abs(steps[0]!.logEstimate - Math.log(0.97)) < 1e-12);
    const suspicions = suspectedDrifts('mariadb-10.11.4', 'mariadb-10.11.1', stepsByTest(checks, verdicts, tagOf), [
      verdict('ok', 0.97),
    ]);
    assert.deepEqual(suspicions, [], 'no chain back to the base: nothing to suspect');
  });
});

describe('when a check needs a confirming session against the base', () => {
  test('a chain of four 3% losses is under 0.95: suspected, with its chained interval', () => {
    const { checks, verdicts } = chain(5, 0.97);
    const [s] = suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', stepsByTest(checks, verdicts, tagOf), [
      verdict('ok', 0.97),
    ]);
    assert.ok(s !== undefined);
    assert.equal(s.chained.steps, 4);
    assert.ok(Math.abs(s.chained.relativeQps - 0.97 ** 4) < 1e-9);
    assert.ok(s.chained.low < s.chained.relativeQps && s.chained.relativeQps < s.chained.high);
    assert.equal(s.threshold, 0.95);
  });

  test('two 2% losses stay over the threshold: nothing to confirm', () => {
    const { checks, verdicts } = chain(3, 0.98);
    assert.deepEqual(
      suspectedDrifts('mariadb-10.11.3', 'mariadb-10.11.1', stepsByTest(checks, verdicts, tagOf), [
        verdict('ok', 0.98),
      ]),
      [],
    );
  });

  test('a release checked directly against the base needs none: the direct check re-anchors it', () => {
    const { checks, verdicts } = chain(5, 0.97);
    const direct = check(5, 1);
    verdicts.set(direct.sessionId, [verdict('ok', 0.99)]);
    assert.deepEqual(
      suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', stepsByTest([...checks, direct], verdicts, tagOf), [
        verdict('ok', 0.97),
      ]),
      [],
    );
  });

  test('a re-anchor below lifts the chain of the releases above it', () => {
    const { checks, verdicts } = chain(5, 0.97);
    const direct = check(4, 1);
    verdicts.set(direct.sessionId, [verdict('ok', 1.0)]);
    assert.deepEqual(
      suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', stepsByTest([...checks, direct], verdicts, tagOf), [
        verdict('ok', 0.97),
      ]),
      [],
    );
  });

  test('a test that regressed in the check itself is left to its regression event', () => {
    const { checks, verdicts } = chain(5, 0.9);
    assert.deepEqual(
      suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', stepsByTest(checks, verdicts, tagOf), [
        verdict('regression', 0.9),
      ]),
      [],
    );
  });

  test('each test against its own threshold, and the base itself never', () => {
    const { checks, verdicts } = chain(5, 0.97);
    const steps = stepsByTest(checks, verdicts, tagOf);
    assert.deepEqual(
      suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', steps, [verdict('ok', 0.97, { threshold: 0.85 })]),
      [],
    );
    assert.deepEqual(suspectedDrifts('mariadb-10.11.1', 'mariadb-10.11.1', steps, [verdict('ok', 0.97)]), []);
  });

  test('a direct session confirms a drift on each test it finds a regression, and only those', () => {
    const drifts = confirmedDrifts([
      verdict('regression', 0.88),
      verdict('slower', 0.96, { test: 'point-query' }),
      verdict('ok', 0.99, { test: 'scan' }),
    ]);
    assert.deepEqual(
      drifts.map((v) => v.test),
      ['update-index'],
    );
  });
});

describe('reanchor_every', () => {
  const base = byPatch(1);
  test('0 is off', () => {
    assert.equal(reanchorDue(0, byPatch(5), base, releases, chain(4, 1).checks), false);
  });

  test('every third checked release goes to the base, counted from the newest anchored one', () => {
    // 2 was checked against 1, the base: anchored. 3 and 4 since, so 5 is the third.
    const { checks } = chain(4, 1);
    assert.equal(reanchorDue(3, byPatch(4), base, releases, checks), false, 'only 3 checked since the anchor');
    assert.equal(reanchorDue(3, byPatch(5), base, releases, checks), true);
    const anchored = [...checks, check(5, 1)];
    assert.equal(reanchorDue(3, byPatch(6), base, releases, anchored), false, '5 re-anchored: the count starts again');
  });

  test('invalid checks and checks of newer releases do not count; 1 sends every check to the base', () => {
    const checks = [check(2, 1), check(3, 2, { invalid: true }), check(4, 2, { invalid: true }), check(10, 2)];
    assert.equal(reanchorDue(3, byPatch(5), base, releases, checks), false);
    assert.equal(reanchorDue(1, byPatch(5), base, releases, checks), true);
    assert.equal(
      reanchorDue(1, base, base, releases, checks),
      false,
      'the base itself is never checked against itself',
    );
  });
});

describe("check's drift line", () => {
  const rel = (p: number) => byPatch(p);
  const checkedResult = (
    against: 'last good' | 'base',
    verdicts: Verdict[],
  ): Extract<CheckResult, { kind: 'checked' }> => ({
    kind: 'checked',
    release: rel(5),
    baseline: against === 'base' ? rel(1) : rel(4),
    against,
    sessionId: 9,
    view: sampleView(),
    verdicts,
    check: check(5, against === 'base' ? 1 : 4),
    plan: { opened: [], continuing: [], fixed: [] },
    messagesQueued: 0,
  });

  test('nothing suspected: nothing said', () => {
    assert.equal(
      driftLine({ result: checkedResult('last good', [verdict('ok', 0.97)]), suspicions: [], drifts: [] }),
      '',
    );
  });

  test('a confirmation that regressed names the test and its relative QPS against the base', () => {
    const confirmation = checkedResult('base', [verdict('regression', 0.88)]);
    assert.equal(
      driftLine({
        result: checkedResult('last good', [verdict('ok', 0.97)]),
        suspicions: [],
        confirmation,
        drifts: confirmedDrifts(confirmation.verdicts),
      }),
      'confirmed drift against the base mariadb-10.11.1: update-index.t1 0.88',
    );
  });

  test('a confirmation without a regression says the drift was not confirmed; --no-confirm says why', () => {
    const confirmation = checkedResult('base', [verdict('slower', 0.96)]);
    assert.equal(
      driftLine({ result: checkedResult('last good', []), suspicions: [], confirmation, drifts: [] }),
      'drift not confirmed: no test regressed against the base mariadb-10.11.1',
    );
    assert.equal(
      driftLine({
        result: checkedResult('last good', []),
        suspicions: [],
        unconfirmed: 'not confirmed (--no-confirm)',
        drifts: [],
      }),
      'drift not confirmed (--no-confirm)',
    );
  });
});

describe('after a person accepted a drift', () => {
  const triage = (releaseId: number, who: string): TriageRecord => ({
    id: releaseId,
    releaseId,
    action: 'accept',
    test: null,
    threads: null,
    who,
    reason: 'the new normal',
    at: '2026-01-01T00:00:00.000Z',
  });

  test("the accepted release is the reference: qpswatch's own accept of a first release is not", () => {
    const tri = [triage(2, 'qpswatch'), triage(3, 'dba'), triage(6, 'dba')];
    assert.equal(acceptedReference(byPatch(5), byPatch(1), releases, tri)?.tag, 'mariadb-10.11.3');
    assert.equal(acceptedReference(byPatch(3), byPatch(1), releases, tri), undefined, 'only older releases');
  });

  test('the drop is measured from the accepted level: no new confirmation unless it fell again', () => {
    // 2..5 each 3% down: 5 is at 0.885 of the base, but 4 was accepted at 0.913.
    const { checks, verdicts } = chain(5, 0.97);
    const steps = stepsByTest(checks, verdicts, tagOf);
    assert.deepEqual(
      suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', steps, [verdict('ok', 0.97)], 'mariadb-10.11.4'),
      [],
    );
    const [s] = suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', steps, [verdict('ok', 0.97)], 'mariadb-10.11.3');
    assert.equal(s?.since, 'mariadb-10.11.3', '0.97^2 = 0.941 since the accepted 3');
  });
});

describe("the drift email's chained series", () => {
  test('per suspected test, the releases up to this one, oldest first, with their chained estimates', () => {
    const { checks, verdicts } = chain(6, 0.97);
    const [s] = suspectedDrifts('mariadb-10.11.5', 'mariadb-10.11.1', stepsByTest(checks, verdicts, tagOf), [
      verdict('ok', 0.97),
    ]);
    const [series] = chainedSeries([s!], byPatch(5), releases);
    assert.deepEqual(
      series!.points.map((p) => [p.tag, p.steps]),
      [
        ['mariadb-10.11.2', 1],
        ['mariadb-10.11.3', 2],
        ['mariadb-10.11.4', 3],
        ['mariadb-10.11.5', 4],
      ],
      '6 is newer: left out',
    );
    assert.ok(Math.abs(series!.points[3]!.relativeQps - 0.97 ** 4) < 1e-9);
  });
});
