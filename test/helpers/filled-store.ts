import type { Store } from '../../src/store/index.js';
import { checkInput, releases, verdict } from '../unit/store/check-contract.js';
import { instructionVerdict, runInput } from '../unit/store/instruction-contract.js';
import { hostInput, sampleInput, sessionInput, targetRef } from '../unit/store/store-inputs.js';

/** What fillEveryTable wrote, for the reads that compare two stores. */
export interface FilledIds {
  hostIds: number[];
  sessionIds: number[];
  releaseIds: number[];
  fingerprintId: string;
}

/**
 * Writes rows into nearly every table of a store through the Store API, as qpswatch's commands write them: hosts,
 * releases and builds, done and interrupted sessions with samples (host metrics, database counters, figure packs),
 * checks with verdicts, events and outbox messages, triage and reruns, imported results, the queue, the daemon's
 * state, a quiet-host observation, a calibration, a bisection, a profile, and an instructions lane with its runs,
 * function tables, verdicts and event. Text with quotes, backslashes and
 * characters outside ASCII, and doubles that print long, so a copy that changes a value is seen.
 */
export async function fillEveryTable(store: Store, tag = 'a'): Promise<FilledIds> {
  const fingerprintId = `fp-${tag}-4c-16g`;
  const hostIds = [
    await store.upsertHost(hostInput({ fingerprintId })),
    await store.upsertHost(
      hostInput({ fingerprintId: `${fingerprintId}-second`, fingerprint: { cpu: 'Ünïcode "x"' } }),
    ),
  ];
  const ids = await releases(store, '10.11.8', '10.11.9', '10.11.10');
  const [r8, r9, r10] = ['10.11.8', '10.11.9', '10.11.10'].map((v) => ids.get(v)!);
  const build = await store.startBuild({
    releaseId: r9!,
    buildKey: `k-${tag}-9`,
    profile: 'mariadb-rel',
    compiler: 'gcc 12.2.0',
    installDir: '/var/lib/qpswatch/builds/k-9',
    logFile: '/var/lib/qpswatch/builds/k-9.log',
    pid: 4242,
  });
  await store.finishBuild(build.id);
  const failed = await store.startBuild({
    releaseId: r10!,
    buildKey: `k-${tag}-10`,
    profile: 'mariadb-rel',
    compiler: 'gcc 12.2.0',
    installDir: '/var/lib/qpswatch/builds/k-10',
    logFile: '/var/lib/qpswatch/builds/k-10.log',
    pid: 4243,
  });
  await store.failBuild(failed.id, ["error: 'x' was not declared", 'make: *** [all] Error 2 \\ done']);

  const sessionIds: number[] = [];
  for (const [i, hostId] of hostIds.entries()) {
    const id = await store.createSession(
      sessionInput(hostId, {
        baseline: targetRef('mariadb-10.11.9', '10.11.9'),
        candidate: targetRef('mariadb-10.11.10', '10.11.10'),
        pidStartTicks: 123_456_789 + i,
      }),
    );
    sessionIds.push(id);
    for (const round of [1, 2])
      for (const role of ['baseline', 'candidate'] as const)
        for (const test of ['update-index', 'point-query'])
          await store.addSample(
            id,
            sampleInput({
              round,
              role,
              test,
              threads: 1,
              targetName: role === 'baseline' ? 'mariadb-10.11.9' : 'mariadb-10.11.10',
              qps: (role === 'baseline' ? 1000 : 900) + 0.1 + 0.2 + round / 3,
              latencyAvgMs: 1 / 3,
              writeKBPerOp: 123_456_789.123_456_78,
            }),
          );
    if (i === 0) {
      await fillInstructionLane(store, id);
      // One side with both kinds of facts, the other with variables alone: a copy keeps the empty column empty.
      await store.recordServerVariables(id, 'baseline', { sync_binlog: '0', ft_boolean_syntax: '+ -><()~*:""&|' });
      await store.recordServerVariables(id, 'candidate', { sync_binlog: '1' });
      await store.recordStatementPlans(id, 'baseline', [
        { test: 'point-query', statement: 'SELECT c FROM sbtest1 WHERE id=?', plan: { query_block: { rows: 1.5 } } },
      ]);
      await store.finishSession(id);
    } else await store.interruptSession(id, 'stopped by SIGTERM — «the operator»');
  }
  const [done] = sessionIds;
  await store.recordCheck(
    checkInput(done!, r10!, r9!, {
      outcome: 'regression',
      verdicts: [verdict('update-index', 'regression', 0.8123456789012345), verdict('point-query', 'ok', 1.01)],
      openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.8123456789012345 }],
      instructions: {
        verdicts: [instructionVerdict('point-query', 'regression', 1.0312345678901234)],
        openEvents: [
          { test: 'point-query', threads: 1, ratio: 1.0312345678901234, kind: 'regression', baselineReleaseId: r9! },
        ],
        fixedEventIds: [],
      },
      messages: [
        {
          eventKey: `regression:${tag}:10.11.10`,
          from: 'qpswatch@example.org',
          to: ['dba@example.org'],
          subject: 'qpswatch: mariadb 10.11.10 update-index −19%',
          text: 'text part',
          html: '<p>html &amp; part</p>',
          messageId: `<regression-${tag}@qpswatch>`,
        },
      ],
    }),
  );
  const [sent] = await store.listMessages('pending');
  await store.markMessageSent(sent!.id, '250 2.0.0 Ok: queued as ABC', '2026-12-02T10:00:00.000Z');
  await store.triage({ releaseId: r10!, action: 'ack', who: 'dba', reason: 'known: "fsync" change' });
  await store.triage({ releaseId: r8!, action: 'invalid', who: 'dba', reason: 'noisy host' });
  await store.importResults(
    [
      {
        flavor: 'mariadb',
        version: '10.2.30',
        versionKey: '010.002.030',
        test: 'point-query',
        threads: 1,
        qps: 5432.1,
        cpuPerOp: 0.001,
        csPerOp: 2,
        readsPerOp: 0,
        readKBPerOp: 0,
        writeKBPerOp: 0.25,
      },
    ],
    'study.csv',
  );
  await store.enqueueReleases('host-a', [r9!, r10!]);
  await store.claimQueued({
    slot: 'host-a',
    releaseId: r9!,
    to: 'building',
    claimant: 'host-a',
    until: '2026-12-02T09:10:00.000Z',
  });
  await store.setDaemonState('', { phase: 'idle', lastPollAt: '2026-12-02T09:00:00.000Z', pid: 4242 });
  await store.recordQuietHost({
    sessionId: done!,
    observation: { load: 0.05, note: 'quiet' },
    quiet: true,
    reasons: [],
    waitedSeconds: 1.5,
  });
  await store.recordCalibration({
    hostId: hostIds[0]!,
    sessionId: done!,
    suite: 'quick',
    target: 'relaxed',
    settings: { alpha: 0.01 },
    tests: [
      {
        test: 'point-query',
        threads: 1,
        pairs: 12,
        noise: 0.048,
        pairSeconds: 6.8,
        pairsNeeded: 24,
        minutesNeeded: 2.72,
        detectableDrop: 0.061,
      },
    ],
  });
  const [event] = await store.listEvents({ state: 'open' });
  await store.recordBisection({
    releaseId: r10!,
    goodReleaseId: r9!,
    buildProfile: 'demo',
    tests: ['update-index'],
    commitCount: 3,
    outcome: 'found',
    firstBad: { commit: 'b'.repeat(40), subject: `fsync ("durable" <by default>) & more`, author: `O'Brien` },
    candidates: [],
    steps: [{ commit: 'b'.repeat(40), subject: 's', author: `O'Brien`, outcome: 'bad', sessionId: done! }],
    builds: 2,
    startedAt: '2026-12-02T10:00:00.000Z',
    endedAt: '2026-12-02T10:05:00.000Z',
    eventId: event!.id,
  });
  await store.addProfile({
    baseline: 'relaxed',
    candidate: 'durable',
    test: 'update-index',
    threads: 1,
    seconds: 10,
    baselineTool: 'perf',
    candidateTool: 'gdb',
    baselineStacks: [{ stack: 'main;write', count: 3 }],
    candidateStacks: [{ stack: 'main;<script>;fdatasync', count: 5 }],
    sessionId: done!,
  });
  return { hostIds, sessionIds, releaseIds: [r8!, r9!, r10!], fingerprintId };
}

/** The instructions lane of a running session: a run per side and repeat, a function table per side, the outcome. */
async function fillInstructionLane(store: Store, sessionId: number): Promise<void> {
  for (const role of ['baseline', 'candidate'] as const) {
    for (const repeat of [1, 2])
      await store.addInstructionRun(
        sessionId,
        runInput({ role, repeat, instructions: 84_011_678 + repeat, conditions: { suite: 'quick', note: 'Ünï "x"' } }),
      );
    await store.addInstructionFunctions(sessionId, {
      role,
      test: 'point-query',
      threads: 1,
      functions: [{ name: "JOIN::exec() 'q'", object: 'mariadbd', inclusive: 42_005.838999, exclusive: 1 / 3 }],
    });
  }
  await store.recordInstructionLane(sessionId, {
    state: 'done',
    counter: 'callgrind',
    counterVersion: 'valgrind-3.19.0',
    runs: 4,
    seconds: 81.25,
  });
}

/** Everything the Store API reads back of what fillEveryTable wrote: equal for two stores that hold the same rows. */
export async function readBack(store: Store, ids: FilledIds): Promise<Record<string, unknown>> {
  const [done] = ids.sessionIds;
  return {
    hosts: await Promise.all(ids.hostIds.map((id) => store.getHost(id))),
    sessions: await store.listSessions({ limit: 100 }),
    samples: await Promise.all(ids.sessionIds.map((id) => store.samplesForSession(id))),
    figures: await store.sampleFigures(done!),
    releases: await store.listReleases(),
    builds: await store.listBuilds(),
    checks: await store.listChecks(),
    verdicts: await store.verdictsOfSession(done!),
    events: await store.listEvents({}),
    triage: await store.listTriage(),
    reruns: await store.listReruns(),
    messages: await store.listMessages(),
    imported: await store.listImportedResults(),
    queue: await store.listQueue(),
    daemon: await store.getDaemonState(''),
    quiet: await store.getQuietHost(done!),
    calibration: await store.latestCalibration(ids.fingerprintId, 'quick'),
    bisections: await store.listBisections(),
    profile: await store.profileOfSession(done!),
    instructionRuns: await store.instructionRuns(done!),
    instructionFunctions: await store.instructionFunctions(done!),
    instructionLane: await store.instructionLane(done!),
    instructionVerdicts: await store.instructionVerdictsOfSession(done!),
    instructionEvents: await store.listInstructionEvents({}),
  };
}
