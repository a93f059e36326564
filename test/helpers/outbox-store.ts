import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { hostInput, sampleInput, sessionInput } from '../unit/store/store-inputs.js';

/**
 * Queues one pending email in the SQLite store under `stateDir` the way a check does (a done session, a check and
 * its message in one recordCheck), so CLI tests can run `outbox --send` without a benchmark.
 */
export async function queueOneMessage(stateDir: string, subject: string): Promise<void> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
  try {
    const versions = ['10.11.2', '10.11.3'];
    const { added } = await store.recordReleases(
      versions.map((v) => ({
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
    const [baseline, candidate] = added;
    const hostId = await store.upsertHost(hostInput());
    const sessionId = await store.createSession(sessionInput(hostId));
    await store.addSample(sessionId, sampleInput({ role: 'baseline', targetName: 'mariadb-10.11.9' }));
    await store.addSample(sessionId, sampleInput({ role: 'candidate', targetName: 'mariadb-10.11.10' }));
    await store.finishSession(sessionId);
    await store.recordCheck({
      sessionId,
      releaseId: candidate!.id,
      baselineReleaseId: baseline!.id,
      outcome: 'ok',
      verdicts: [],
      openEvents: [],
      fixedEventIds: [],
      messages: [
        {
          eventKey: 'fault-test',
          from: 'qpswatch@example.org',
          to: ['dba@example.org'],
          subject,
          text: 'text part',
          html: '<p>html part</p>',
          messageId: '<fault-test@qpswatch>',
        },
      ],
    });
  } finally {
    await store.close();
  }
}
