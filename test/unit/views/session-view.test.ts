import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { compareSession, type VerdictSettings } from '../../../src/analysis/index.js';
import { judgeStored } from '../../../src/session/index.js';
import { storedPlan, storedSessionView, UnknownSessionError } from '../../../src/views/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { sampleInput, sessionInput } from '../store/store-inputs.js';

/** `qpswatch show`'s pipeline: a session rebuilt from the store alone, judged as compare judged it. */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-session-view-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FINGERPRINT = {
  cpuModel: 'AMD EPYC 7B13',
  sockets: 1,
  cores: 4,
  threads: 8,
  smt: 'on',
  numaNodes: 1,
  memoryBytes: 17_179_869_184,
  kernel: '6.1.0',
  governor: 'none',
  dataDevice: 'nvme0n1 (ssd)',
  filesystem: 'ext4',
  compiler: 'none',
  cpuidleDriver: 'none',
  cpuidleGovernor: 'none',
  idleStatesHeld: false,
};
const HOST = {
  cpu: 'AMD EPYC 7B13',
  cores: 4,
  threads: 8,
  memGiB: 16,
  kernel: '6.1.0',
  disk: 'nvme0n1 (ssd)',
  fs: 'ext4',
  idleStatesHeld: false,
};
const STORED: VerdictSettings = {
  threshold: 0.9,
  testThresholds: { 'point-query': 0.8 },
  alpha: 0.05,
  confidence: 0.9,
};
const CONFIG: VerdictSettings = { threshold: 0.97, testThresholds: {}, alpha: 0.01, confidence: 0.95 };

let store: Store;
let hostId: number;

/** A whole-run session of 5 rounds, two tests; the candidate 20% slower on update-index. */
async function session(settings: object, end: 'done' | 'failed' | 'running' = 'done', rounds = 5): Promise<number> {
  const id = await store.createSession(sessionInput(hostId, { settings, rounds }));
  for (let round = 1; round <= rounds; round++) {
    for (const [test, slower] of [
      ['update-index', 0.8],
      ['point-query', 1],
    ] as const) {
      const wobble = 1 + round / 1000;
      await store.addSample(
        id,
        sampleInput({ round, role: 'baseline', targetName: 'mariadb-10.11.9', test, threads: 1, qps: 1000 * wobble }),
      );
      await store.addSample(
        id,
        sampleInput({
          round,
          role: 'candidate',
          targetName: 'mariadb-10.11.10',
          test,
          threads: 1,
          qps: 1000 * slower * wobble,
        }),
      );
    }
  }
  if (end === 'done') await store.finishSession(id);
  if (end === 'failed') await store.failSession(id, 'mariadbd exited with signal 9 <b>');
  return id;
}

describe('storedSessionView', () => {
  before(async () => {
    store = await openStore({ backend: 'sqlite', path: join(dir, 'qpswatch.sqlite') });
    hostId = await store.upsertHost({ fingerprintId: 'fp-test', fingerprint: FINGERPRINT });
  });
  after(() => store.close());

  test(
    'a done compare is the view compare built: its samples judged with the ' + 'verdict settings it ran with',
    async () => {
      const id = await session({ design: 'runs', verdicts: STORED });
      const shown = await storedSessionView(store, id, CONFIG);
      const samples = await store.completedSamples(id);
      const verdicts = judgeStored({ design: 'runs', verdicts: STORED }, samples);
      assert.equal(shown.judged, 'samples');
      assert.deepEqual(shown.verdicts, verdicts);
      assert.deepEqual(shown.view, compareSession((await store.getSession(id))!, samples, HOST, verdicts));
      assert.deepEqual(
        shown.view.tests.map((t) => [t.test, t.verdict?.threshold]),
        [
          ['update-index', 0.9],
          ['point-query', 0.8],
        ],
      );
      assert.equal(shown.view.tests[0]!.verdict?.kind, 'regression');
    },
  );

  test("a session recorded before its verdict settings were kept is judged with the config's", async () => {
    const id = await session({ design: 'runs' });
    const shown = await storedSessionView(store, id, CONFIG);
    assert.deepEqual(
      shown.view.tests.map((t) => t.verdict?.threshold),
      [0.97, 0.97],
    );
    assert.deepEqual(storedPlan((await store.getSession(id))!, CONFIG), { design: 'runs', verdicts: CONFIG });
    // A malformed record falls back too, and no design means whole runs.
    const odd = (await store.getSession(id))!;
    assert.deepEqual(storedPlan({ ...odd, settings: { verdicts: { threshold: 'high' } } }, CONFIG), {
      design: 'runs',
      verdicts: CONFIG,
    });
    assert.equal(storedPlan({ ...odd, settings: { design: 'paired', verdicts: STORED } }, CONFIG).design, 'paired');
    // The blocks and looks a paired session was judged by come back whole: show cuts blocks as compare did.
    const paired = { ...STORED, maxPairs: 200, plannedBlocks: 17, instanceSeconds: 15 };
    assert.deepEqual(storedPlan({ ...odd, settings: { design: 'paired', verdicts: paired } }, CONFIG).verdicts, paired);
    assert.deepEqual(
      storedPlan({ ...odd, settings: { design: 'paired', verdicts: { ...paired, plannedBlocks: '17' } } }, CONFIG)
        .verdicts,
      CONFIG,
      'a malformed block count falls back to the config',
    );
  });

  test('a checked session shows the verdicts its check stored', async () => {
    const id = await session({ design: 'runs', verdicts: STORED });
    const { added } = await store.recordReleases(
      ['10.11.9', '10.11.10'].map((v) => ({
        upstream: 'mariadb-10.11',
        flavor: 'mariadb',
        tag: `mariadb-${v}`,
        commit: 'a'.repeat(40),
        version: v,
        versionKey: v
          .split('.')
          .map((p) => p.padStart(3, '0'))
          .join('.'),
      })),
    );
    const judged = judgeStored({ design: 'runs', verdicts: STORED }, await store.completedSamples(id));
    // What the check stored differs from a judgement today (say the thresholds changed since): the check's stands.
    const stored = judged.map((v) => ({ ...v, kind: 'unstable' as const }));
    await store.recordCheck({
      sessionId: id,
      releaseId: added[1]!.id,
      baselineReleaseId: added[0]!.id,
      outcome: 'ok',
      verdicts: stored,
      openEvents: [],
      fixedEventIds: [],
      messages: [],
    });
    const shown = await storedSessionView(store, id, CONFIG);
    assert.equal(shown.judged, 'check');
    assert.deepEqual(shown.verdicts, stored);
    assert.deepEqual(
      shown.view.tests.map((t) => t.verdict?.kind),
      ['unstable', 'unstable'],
    );
  });

  test('a failed session shows every sample it stored, not judged', async () => {
    const id = await session({ design: 'runs', verdicts: STORED }, 'failed', 2);
    const shown = await storedSessionView(store, id, CONFIG);
    assert.equal(shown.judged, 'none');
    assert.deepEqual(shown.verdicts, []);
    assert.deepEqual(
      shown.view.tests.map((t) => [t.test, t.baseline.samples, t.candidate.samples, t.verdict]),
      [
        ['update-index', 2, 2, undefined],
        ['point-query', 2, 2, undefined],
      ],
    );
    assert.equal(shown.session.error, 'mariadbd exited with signal 9 <b>');
  });

  test('a running session shows its samples so far, with no end time', async () => {
    const id = await session({ design: 'runs' }, 'running', 1);
    const shown = await storedSessionView(store, id, CONFIG);
    assert.equal(shown.judged, 'none');
    assert.equal(shown.view.finishedAt, '');
    assert.equal(shown.view.tests.length, 2);
  });

  test('an unknown id is bad input that names it and the command that lists sessions', async () => {
    await assert.rejects(storedSessionView(store, 999, CONFIG), (err: unknown) => {
      assert.ok(err instanceof UnknownSessionError);
      assert.equal(err.message, 'no session 999 in the store: `qpswatch sessions` lists the ones there are');
      return true;
    });
  });
});
