import type Database from 'better-sqlite3';
import type { CalibrationFigure } from '../../model/index.js';
import type { CalibrationInput, CalibrationRecord } from '../calibration-types.js';
import { HostNotFoundError, InvalidRecordError, SessionNotFoundError } from '../errors.js';
import type { JsonObject } from '../store.js';

interface CalibrationRow {
  id: number;
  host_id: number;
  fingerprint_id: string;
  suite: string;
  session_id: number;
  target: string;
  settings: string;
  tests: string;
  created_at: string;
}

const calibrationFromRow = (r: CalibrationRow): CalibrationRecord => ({
  id: r.id,
  hostId: r.host_id,
  fingerprintId: r.fingerprint_id,
  sessionId: r.session_id,
  suite: r.suite,
  target: r.target,
  settings: JSON.parse(r.settings) as JsonObject,
  tests: JSON.parse(r.tests) as CalibrationFigure[],
  createdAt: r.created_at,
});

const SELECT = 'SELECT c.*, h.fingerprint_id FROM calibrations c JOIN hosts h ON h.id = c.host_id';

/** Calibrations of hosts per suite (`qpswatch calibrate`); the newest of a host and suite is the one that counts. */
export class SqliteCalibrations {
  readonly #sql;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      hostExists: p('SELECT 1 FROM hosts WHERE id = ?'),
      sessionState: p('SELECT state FROM sessions WHERE id = ?'),
      insert: p(`INSERT INTO calibrations (host_id, suite, session_id, target, settings, tests, created_at)
        VALUES (@host_id, @suite, @session_id, @target, @settings, @tests, @created_at)`),
      get: p(`${SELECT} WHERE c.id = ?`),
      latest: p(`${SELECT} WHERE h.fingerprint_id = ? AND c.suite = ? ORDER BY c.id DESC LIMIT 1`),
      ofHost: p(`${SELECT} WHERE h.fingerprint_id = ? ORDER BY c.id DESC`),
    };
  }

  record(input: CalibrationInput, at: string): CalibrationRecord {
    if (!this.#sql.hostExists.get(input.hostId)) throw new HostNotFoundError(input.hostId);
    const session = this.#sql.sessionState.get(input.sessionId) as { state: string } | undefined;
    if (!session) throw new SessionNotFoundError(input.sessionId);
    // Only a finished session speaks for the host: a half-run one is redone, never counted.
    if (session.state !== 'done') throw new InvalidRecordError('calibration', 'sessionId', input.sessionId, `expected a done session (it is ${session.state})`);
    const id = Number(
      this.#sql.insert.run({
        host_id: input.hostId,
        suite: input.suite,
        session_id: input.sessionId,
        target: input.target,
        settings: JSON.stringify(input.settings),
        tests: JSON.stringify(input.tests),
        created_at: at,
      }).lastInsertRowid,
    );
    return calibrationFromRow(this.#sql.get.get(id) as CalibrationRow);
  }

  latest(fingerprintId: string, suite: string): CalibrationRecord | undefined {
    const row = this.#sql.latest.get(fingerprintId, suite) as CalibrationRow | undefined;
    return row && calibrationFromRow(row);
  }

  ofHost(fingerprintId: string): CalibrationRecord[] {
    return (this.#sql.ofHost.all(fingerprintId) as CalibrationRow[]).map(calibrationFromRow);
  }
}
