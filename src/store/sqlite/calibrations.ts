import type { CalibrationFigure } from '../../model/index.js';
import type { CalibrationInput, CalibrationRecord, CalibrationStore } from '../calibration-types.js';
import { HostNotFoundError, InvalidRecordError, SessionNotFoundError } from '../errors.js';
import { parseCalibrationInput } from '../validate-calibration.js';
import { checkText } from '../validate.js';
import { nowIso, SqliteRole } from './connection.js';
import type { JsonObject } from '../json-object.js';

interface CalibrationRow {
  id: number;
  host_id: number;
  fingerprint_id: string;
  suite: string;
  session_id: number;
  target: string;
  settings: string;
  tests: string;
  instance_spread: number | null;
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
  instanceSpread: r.instance_spread === null ? null : Number(r.instance_spread),
  createdAt: r.created_at,
});

const SELECT = 'SELECT c.*, h.fingerprint_id FROM calibrations c JOIN hosts h ON h.id = c.host_id';

/** Calibrations of hosts per suite (`qpswatch calibrate`); the newest of a host and suite is the one that counts. */
export class SqliteCalibrations extends SqliteRole implements CalibrationStore {
  readonly #sql = this.statements({
    hostExists: 'SELECT 1 FROM hosts WHERE id = ?',
    sessionState: 'SELECT state FROM sessions WHERE id = ?',
    insert: `INSERT INTO calibrations (host_id, suite, session_id, target, settings, tests, instance_spread, created_at)
      VALUES (@host_id, @suite, @session_id, @target, @settings, @tests, @instance_spread, @created_at)`,
    get: `${SELECT} WHERE c.id = ?`,
    latest: `${SELECT} WHERE h.fingerprint_id = ? AND c.suite = ? ORDER BY c.id DESC LIMIT 1`,
    ofHost: `${SELECT} WHERE h.fingerprint_id = ? ORDER BY c.id DESC`,
  });

  async recordCalibration(input: CalibrationInput): Promise<CalibrationRecord> {
    const valid = parseCalibrationInput(input);
    return this.write('record a calibration', () => this.#record(valid, nowIso()));
  }

  async latestCalibration(fingerprintId: string, suite: string): Promise<CalibrationRecord | undefined> {
    checkText('calibration', 'fingerprintId', fingerprintId);
    checkText('calibration', 'suite', suite);
    return this.read('read a calibration', () => {
      const row = this.#sql.latest.get(fingerprintId, suite) as CalibrationRow | undefined;
      return row && calibrationFromRow(row);
    });
  }

  async calibrationsOfHost(fingerprintId: string): Promise<CalibrationRecord[]> {
    checkText('calibration', 'fingerprintId', fingerprintId);
    return this.read('read calibrations', () =>
      (this.#sql.ofHost.all(fingerprintId) as CalibrationRow[]).map(calibrationFromRow),
    );
  }

  #record(input: CalibrationInput, at: string): CalibrationRecord {
    if (!this.#sql.hostExists.get(input.hostId)) throw new HostNotFoundError(input.hostId);
    const session = this.#sql.sessionState.get(input.sessionId) as { state: string } | undefined;
    if (!session) throw new SessionNotFoundError(input.sessionId);
    // Only a finished session speaks for the host: a half-run one is redone, never counted.
    if (session.state !== 'done')
      throw new InvalidRecordError(
        'calibration',
        'sessionId',
        input.sessionId,
        `expected a done session (it is ${session.state})`,
      );
    const id = Number(
      this.#sql.insert.run({
        host_id: input.hostId,
        suite: input.suite,
        session_id: input.sessionId,
        target: input.target,
        settings: JSON.stringify(input.settings),
        tests: JSON.stringify(input.tests),
        instance_spread: input.instanceSpread ?? null,
        created_at: at,
      }).lastInsertRowid,
    );
    return calibrationFromRow(this.#sql.get.get(id) as CalibrationRow);
  }
}
