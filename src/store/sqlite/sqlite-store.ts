import type Database from 'better-sqlite3';
import { DuplicateSampleError, HostNotFoundError, SessionNotFoundError, SessionStateError, StoreClosedError } from '../errors.js';
import type {
  HostInput,
  HostRecord,
  SampleInput,
  SampleRecord,
  SessionInput,
  SessionQuery,
  SessionRecord,
  SessionState,
  Store,
} from '../store.js';
import { SqliteReleases } from './releases.js';
import { SqliteChecks } from './checks.js';
import { SqliteOutbox } from './outbox.js';
import { SqliteImported } from './imported.js';
import { SqliteQueue } from './queue.js';
import { SqliteCalibrations } from './calibrations.js';
import type { CalibrationInput, CalibrationRecord } from '../calibration-types.js';
import { parseCalibrationInput } from '../validate-calibration.js';
import type { QueueState } from '../../model/index.js';
import type { DaemonStateInput, DaemonStateRecord, QueueMove, QueueRecord, QueueRecovery, QuietHostInput, QuietHostRecord } from '../queue-types.js';
import { parseDaemonState, parseQueueMove, parseQuietHostInput } from '../validate-queue.js';
import type {
  CheckInput,
  CheckRecord,
  EventRecord,
  EventState,
  ImportedResultInput,
  ImportedResultRecord,
  OutboxRecord,
  ReleaseSampleRecord,
  RerunRecord,
  TriageInput,
  TriageRecord,
  TriageResult,
  VerdictRecord,
} from '../check-types.js';
import { parseCheckInput, parseImportedResults, parseTriageInput } from '../validate-checks.js';
import type { BuildInput, BuildRecord, RecordReleasesResult, ReleaseInput, ReleaseRecord } from '../release-types.js';
import { checkId, checkText, parseBuildInput, parseReleaseInputs, parseHostInput, parseSampleInput, parseSessionInput, parseSessionQuery } from '../validate.js';
import { hostFromRow, sampleFromRow, sessionFromRow, targetColumns } from './rows.js';
import type { CounterRow, HostRow, SampleRow, SessionRow } from './rows.js';
import { prepareStatements, type Statements } from './statements.js';
import { sampleParams } from './sample-params.js';

/**
 * better-sqlite3 is synchronous; the methods are async only to share the backend-neutral Store contract. Writes use
 * IMMEDIATE transactions so a second process waits on busy_timeout instead of failing on a lock upgrade; reads use a
 * deferred transaction so a session's state and its samples come from one snapshot.
 */
export class SqliteStore implements Store {
  readonly backend = 'sqlite';
  #db: Database.Database | undefined;
  readonly #sql: Statements;
  readonly #releases: SqliteReleases;
  readonly #outbox: SqliteOutbox;
  readonly #checks: SqliteChecks;
  readonly #imported: SqliteImported;
  readonly #queue: SqliteQueue;
  readonly #calibrations: SqliteCalibrations;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#sql = prepareStatements(db);
    this.#releases = new SqliteReleases(db);
    this.#outbox = new SqliteOutbox(db);
    this.#checks = new SqliteChecks(db, this.#outbox);
    this.#imported = new SqliteImported(db);
    this.#queue = new SqliteQueue(db);
    this.#calibrations = new SqliteCalibrations(db);
  }

  async upsertHost(input: HostInput): Promise<number> {
    const host = parseHostInput(input);
    this.#live('upsert a host');
    const row = this.#sql.upsertHost.get({
      fingerprint_id: host.fingerprintId,
      fingerprint: JSON.stringify(host.fingerprint),
      at: nowIso(),
    }) as { id: number };
    return row.id;
  }

  async getHost(id: number): Promise<HostRecord | undefined> {
    checkId('host', 'hostId', id);
    this.#live('read a host');
    const row = this.#sql.getHost.get(id) as HostRow | undefined;
    return row && hostFromRow(row);
  }

  async createSession(input: SessionInput): Promise<number> {
    const session = parseSessionInput(input);
    return this.#write('create a session', () => {
      if (!this.#sql.getHost.get(session.hostId)) throw new HostNotFoundError(session.hostId);
      const result = this.#sql.insertSession.run({
        kind: session.kind,
        host_id: session.hostId,
        ...targetColumns('baseline', session.baseline),
        ...targetColumns('candidate', session.candidate),
        suite: session.suite,
        rounds: session.rounds,
        pid: session.pid,
        settings: JSON.stringify(session.settings),
        started_at: nowIso(),
      });
      return Number(result.lastInsertRowid);
    });
  }

  async finishSession(id: number): Promise<void> {
    this.#end(checkId('session', 'sessionId', id), 'done', null, 'finish');
  }

  async failSession(id: number, error: string): Promise<void> {
    this.#end(checkId('session', 'sessionId', id), 'failed', checkText('session', 'error', error), 'fail');
  }

  async interruptSession(id: number, reason: string): Promise<void> {
    this.#end(checkId('session', 'sessionId', id), 'interrupted', checkText('session', 'error', reason), 'interrupt');
  }

  async getSession(id: number): Promise<SessionRecord | undefined> {
    checkId('session', 'sessionId', id);
    this.#live('read a session');
    const row = this.#sql.getSession.get(id) as SessionRow | undefined;
    return row && sessionFromRow(row);
  }

  async listSessions(query: SessionQuery): Promise<SessionRecord[]> {
    const { limit, state } = parseSessionQuery(query);
    this.#live('list sessions');
    const rows = this.#sql.listSessions.all({ limit, state: state ?? null }) as SessionRow[];
    return rows.map(sessionFromRow);
  }

  async recoverInterrupted(isAlive: (pid: number) => boolean): Promise<number> {
    return this.#write('recover interrupted sessions', () => {
      const running = this.#sql.runningSessions.all() as { id: number; pid: number }[];
      const at = nowIso();
      let marked = 0;
      for (const { id, pid } of running) {
        if (isAlive(pid)) continue;
        marked += this.#sql.endSession.run({ id, state: 'interrupted', error: null, at }).changes;
      }
      return marked;
    });
  }

  async addSample(sessionId: number, input: SampleInput): Promise<number> {
    checkId('sample', 'sessionId', sessionId);
    const sample = parseSampleInput(input);
    return this.#write('add a sample', () => {
      this.#requireRunning(sessionId, 'add a sample to');
      const key = { round: sample.round, role: sample.role, test: sample.test, threads: sample.threads };
      if (this.#sql.sampleExists.get({ session_id: sessionId, ...key })) throw new DuplicateSampleError(sessionId, key);
      const params = sampleParams(sessionId, sample, nowIso());
      const sampleId = Number(this.#sql.insertSample.run(params.sample).lastInsertRowid);
      this.#sql.insertHostMetrics.run({ sample_id: sampleId, ...params.hostMetrics });
      for (const [name, value] of Object.entries(sample.dbCounters)) {
        this.#sql.insertCounter.run(sampleId, name, value.delta, value.perOp);
      }
      return sampleId;
    });
  }

  async samplesForSession(sessionId: number): Promise<SampleRecord[]> {
    checkId('session', 'sessionId', sessionId);
    return this.#read('read samples', () => {
      this.#stateOf(sessionId);
      return this.#samples(sessionId);
    });
  }

  async completedSamples(sessionId: number): Promise<SampleRecord[]> {
    checkId('session', 'sessionId', sessionId);
    return this.#read('read samples', () => (this.#stateOf(sessionId) === 'done' ? this.#samples(sessionId) : []));
  }

  async recordReleases(releases: readonly ReleaseInput[]): Promise<RecordReleasesResult> {
    const valid = parseReleaseInputs(releases);
    return this.#write('record releases', () => this.#releases.recordReleases(valid, nowIso()));
  }

  async listReleases(upstream?: string): Promise<ReleaseRecord[]> {
    return this.#read('list releases', () => this.#releases.listReleases(upstream));
  }

  async findReleasesByTag(tag: string): Promise<ReleaseRecord[]> {
    return this.#read('find a release', () => this.#releases.findReleasesByTag(checkText('release', 'tag', tag)));
  }

  async getRelease(id: number): Promise<ReleaseRecord | undefined> {
    checkId('release', 'releaseId', id);
    return this.#read('read a release', () => this.#releases.getRelease(id));
  }

  async getBuild(buildKey: string): Promise<BuildRecord | undefined> {
    return this.#read('read a build', () => this.#releases.getBuild(checkText('build', 'buildKey', buildKey)));
  }

  async startBuild(input: BuildInput): Promise<BuildRecord> {
    const build = parseBuildInput(input);
    return this.#write('start a build', () => this.#releases.startBuild(build, nowIso()));
  }

  async finishBuild(id: number): Promise<BuildRecord> {
    checkId('build', 'buildId', id);
    return this.#write('finish a build', () => this.#releases.endBuild(id, 'built', [], nowIso()));
  }

  async failBuild(id: number, failureLines: readonly string[]): Promise<BuildRecord> {
    checkId('build', 'buildId', id);
    return this.#write('fail a build', () => this.#releases.endBuild(id, 'failed', failureLines, nowIso()));
  }

  async buildsOfRelease(releaseId: number): Promise<BuildRecord[]> {
    checkId('release', 'releaseId', releaseId);
    return this.#read('list builds', () => this.#releases.buildsOfRelease(releaseId));
  }

  async listBuilds(): Promise<BuildRecord[]> {
    return this.#read('list builds', () => this.#releases.allBuilds());
  }

  async recordCheck(input: CheckInput): Promise<CheckRecord> {
    const check = parseCheckInput(input);
    return this.#write('record a check', () => this.#checks.recordCheck(check, nowIso()));
  }

  async listChecks(upstream?: string): Promise<CheckRecord[]> {
    return this.#read('list checks', () => this.#checks.checks(upstream));
  }

  async getCheck(sessionId: number): Promise<CheckRecord | undefined> {
    checkId('check', 'sessionId', sessionId);
    return this.#read('read a check', () => this.#checks.check(sessionId));
  }

  async verdictsOfSession(sessionId: number): Promise<VerdictRecord[]> {
    checkId('check', 'sessionId', sessionId);
    return this.#read('read verdicts', () => this.#checks.verdicts(sessionId));
  }

  async listEvents(query: { upstream?: string; state?: EventState }): Promise<EventRecord[]> {
    return this.#read('list regression events', () => this.#checks.events(query));
  }

  async triage(input: TriageInput): Promise<TriageResult> {
    const triage = parseTriageInput(input);
    return this.#write(`record ${triage.action}`, () => this.#checks.triage(triage, nowIso()));
  }

  async listTriage(releaseId?: number): Promise<TriageRecord[]> {
    if (releaseId !== undefined) checkId('triage', 'releaseId', releaseId);
    return this.#read('list triage', () => this.#checks.triageOf(releaseId));
  }

  async listReruns(): Promise<RerunRecord[]> {
    return this.#read('list reruns', () => this.#checks.reruns());
  }

  async dueMessages(now: string, limit: number): Promise<OutboxRecord[]> {
    checkText('message', 'now', now);
    checkId('message', 'limit', limit);
    return this.#read('read the outbox', () => this.#outbox.due(now, limit));
  }

  async markMessageSent(id: number, detail: string, at: string): Promise<void> {
    checkId('message', 'id', id);
    this.#write('mark a message sent', () => this.#outbox.markSent(id, detail, checkText('message', 'at', at)));
  }

  async markMessageFailed(id: number, error: string, nextAttemptAt: string): Promise<void> {
    checkId('message', 'id', id);
    this.#write('mark a message failed', () => this.#outbox.markFailed(id, error, checkText('message', 'nextAttemptAt', nextAttemptAt)));
  }

  async listMessages(state?: OutboxRecord['state']): Promise<OutboxRecord[]> {
    return this.#read('read the outbox', () => this.#outbox.list(state));
  }

  async importResults(rows: readonly ImportedResultInput[], source: string, options: { replace?: boolean } = {}): Promise<{ added: number; replaced: number }> {
    const valid = parseImportedResults(rows);
    checkText('result', 'source', source);
    return this.#write('import results', () => this.#imported.importResults(valid, source, options.replace === true, nowIso()));
  }

  async listImportedResults(): Promise<ImportedResultRecord[]> {
    return this.#read('list imported results', () => this.#imported.list());
  }

  async releaseSamples(upstream: string): Promise<ReleaseSampleRecord[]> {
    return this.#read('read release samples', () => this.#imported.releaseSamples(checkText('release', 'upstream', upstream)));
  }

  async enqueueReleases(releaseIds: readonly number[]): Promise<QueueRecord[]> {
    for (const id of releaseIds) checkId('queue', 'releaseId', id);
    return this.#write('enqueue releases', () => this.#queue.enqueue(releaseIds, nowIso()));
  }

  async getQueued(releaseId: number): Promise<QueueRecord | undefined> {
    checkId('queue', 'releaseId', releaseId);
    return this.#read('read the queue', () => this.#queue.get(releaseId));
  }

  async listQueue(): Promise<QueueRecord[]> {
    return this.#read('read the queue', () => this.#queue.list());
  }

  async countQueue(): Promise<Record<QueueState, number>> {
    return this.#read('count the queue', () => this.#queue.counts());
  }

  async moveQueued(move: QueueMove): Promise<QueueRecord> {
    const valid = parseQueueMove(move);
    return this.#write('move a queued release', () => this.#queue.move(valid, nowIso()));
  }

  async recoverQueue(): Promise<QueueRecovery> {
    return this.#write('recover the queue', () => this.#queue.recover(nowIso()));
  }

  async getDaemonState(): Promise<DaemonStateRecord> {
    return this.#read('read the daemon state', () => this.#queue.daemonState());
  }

  async setDaemonState(input: DaemonStateInput): Promise<DaemonStateRecord> {
    const valid = parseDaemonState(input);
    return this.#write('write the daemon state', () => this.#queue.setDaemonState(valid, nowIso()));
  }

  async recordQuietHost(input: QuietHostInput): Promise<void> {
    const valid = parseQuietHostInput(input);
    this.#write('record the quiet-host check', () => {
      this.#stateOf(valid.sessionId);
      this.#queue.recordQuietHost(valid, nowIso());
    });
  }

  async getQuietHost(sessionId: number): Promise<QuietHostRecord | undefined> {
    checkId('session', 'sessionId', sessionId);
    return this.#read('read the quiet-host check', () => this.#queue.quietHost(sessionId));
  }

  async recordCalibration(input: CalibrationInput): Promise<CalibrationRecord> {
    const valid = parseCalibrationInput(input);
    return this.#write('record a calibration', () => this.#calibrations.record(valid, nowIso()));
  }

  async latestCalibration(fingerprintId: string, suite: string): Promise<CalibrationRecord | undefined> {
    checkText('calibration', 'fingerprintId', fingerprintId);
    checkText('calibration', 'suite', suite);
    return this.#read('read a calibration', () => this.#calibrations.latest(fingerprintId, suite));
  }

  async calibrationsOfHost(fingerprintId: string): Promise<CalibrationRecord[]> {
    checkText('calibration', 'fingerprintId', fingerprintId);
    return this.#read('read calibrations', () => this.#calibrations.ofHost(fingerprintId));
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    if (db?.open) db.close();
  }

  #live(operation: string): Database.Database {
    if (!this.#db) throw new StoreClosedError(operation);
    return this.#db;
  }

  #write<T>(operation: string, body: () => T): T {
    return this.#live(operation).transaction(body).immediate();
  }

  #read<T>(operation: string, body: () => T): T {
    return this.#live(operation).transaction(body).deferred();
  }

  #end(id: number, state: SessionState, error: string | null, action: string): void {
    this.#write(`${action} a session`, () => {
      this.#requireRunning(id, action);
      this.#sql.endSession.run({ id, state, error, at: nowIso() });
    });
  }

  #stateOf(sessionId: number): SessionState {
    const row = this.#sql.sessionState.get(sessionId) as { state: SessionState } | undefined;
    if (!row) throw new SessionNotFoundError(sessionId);
    return row.state;
  }

  #requireRunning(sessionId: number, action: string): void {
    const state = this.#stateOf(sessionId);
    if (state !== 'running') throw new SessionStateError(sessionId, state, action);
  }

  #samples(sessionId: number): SampleRecord[] {
    const rows = this.#sql.samplesOfSession.all(sessionId) as SampleRow[];
    const counters = new Map<number, CounterRow[]>();
    for (const counter of this.#sql.countersOfSession.all(sessionId) as CounterRow[]) {
      const list = counters.get(counter.sample_id) ?? [];
      list.push(counter);
      counters.set(counter.sample_id, list);
    }
    return rows.map((row) => sampleFromRow(row, counters.get(row.id) ?? []));
  }
}

function nowIso(): string {
  return new Date().toISOString();
}
