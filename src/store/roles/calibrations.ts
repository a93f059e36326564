import type { CalibrationFigure } from '../../model/index.js';
import type { CalibrationInput, CalibrationRecord, CalibrationStore } from '../calibration-types.js';
import { HostNotFoundError, InvalidRecordError, SessionNotFoundError } from '../errors.js';
import type { JsonObject } from '../json-object.js';
import { parseCalibrationInput } from '../validate-calibration.js';
import { checkText } from '../validate.js';
import { nowIso, SqlRole, type SqlTx } from '../sql.js';

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
export class Calibrations extends SqlRole implements CalibrationStore {
  async recordCalibration(input: CalibrationInput): Promise<CalibrationRecord> {
    const valid = parseCalibrationInput(input);
    return this.write('record a calibration', (tx) => record(tx, valid, nowIso()));
  }

  async latestCalibration(fingerprintId: string, suite: string): Promise<CalibrationRecord | undefined> {
    checkText('calibration', 'fingerprintId', fingerprintId);
    checkText('calibration', 'suite', suite);
    return this.read('read a calibration', async (tx) => {
      const row = await tx.row<CalibrationRow>(
        `${SELECT} WHERE h.fingerprint_id = ? AND c.suite = ? ORDER BY c.id DESC LIMIT 1`,
        [fingerprintId, suite],
      );
      return row && calibrationFromRow(row);
    });
  }

  async calibrationsOfHost(fingerprintId: string): Promise<CalibrationRecord[]> {
    checkText('calibration', 'fingerprintId', fingerprintId);
    return this.read('read calibrations', async (tx) =>
      (await tx.rows<CalibrationRow>(`${SELECT} WHERE h.fingerprint_id = ? ORDER BY c.id DESC`, [fingerprintId])).map(
        calibrationFromRow,
      ),
    );
  }
}

async function record(tx: SqlTx, input: CalibrationInput, at: string): Promise<CalibrationRecord> {
  if ((await tx.row('SELECT 1 AS one FROM hosts WHERE id = ?', [input.hostId])) === undefined)
    throw new HostNotFoundError(input.hostId);
  const session = await tx.row<{ state: string }>('SELECT state FROM sessions WHERE id = ?', [input.sessionId]);
  if (!session) throw new SessionNotFoundError(input.sessionId);
  // Only a finished session speaks for the host: a half-run one is redone, never counted.
  if (session.state !== 'done')
    throw new InvalidRecordError(
      'calibration',
      'sessionId',
      input.sessionId,
      `expected a done session (it is ${session.state})`,
    );
  const { insertId } = await tx.run(
    `INSERT INTO calibrations (host_id, suite, session_id, target, settings, tests, instance_spread, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      input.hostId,
      input.suite,
      input.sessionId,
      input.target,
      JSON.stringify(input.settings),
      JSON.stringify(input.tests),
      input.instanceSpread ?? null,
      at,
    ],
  );
  return calibrationFromRow((await tx.row<CalibrationRow>(`${SELECT} WHERE c.id = ?`, [insertId]))!);
}
