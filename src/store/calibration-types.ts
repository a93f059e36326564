import type { CalibrationFigure } from '../model/index.js';
import type { JsonObject } from './json-object.js';

export interface CalibrationInput {
  hostId: number;
  /** The done session of the target against itself that the figures come from. */
  sessionId: number;
  suite: string;
  /** The target that ran as both sides. */
  target: string;
  /** How the figures were computed (alpha, family, drop, budgets): plain JSON. */
  settings: object;
  tests: CalibrationFigure[];
  /**
   * The sd of one server instance's offset on this host (the median over the suite's tests, log units); null when
   * the calibration could not tell (too few blocks), absent from calibrations before it was measured.
   */
  instanceSpread?: number | null;
}

export interface CalibrationRecord extends Omit<CalibrationInput, 'settings' | 'instanceSpread'> {
  id: number;
  instanceSpread: number | null;
  /** The host's fingerprint id: a calibration speaks only for hosts with this id. */
  fingerprintId: string;
  settings: JsonObject;
  createdAt: string;
}

/** What `qpswatch calibrate` found per host and suite. */
export interface CalibrationStore {
  /** Stores what `qpswatch calibrate` found; the session must be done. */
  recordCalibration(input: CalibrationInput): Promise<CalibrationRecord>;
  /** The newest calibration of the host with this fingerprint id for the suite. */
  latestCalibration(fingerprintId: string, suite: string): Promise<CalibrationRecord | undefined>;
  /** Every calibration of the host with this fingerprint id, newest first. */
  calibrationsOfHost(fingerprintId: string): Promise<CalibrationRecord[]>;
}
