import type { JsonObject } from './json-object.js';

/** One test of a calibration (`qpswatch calibrate`): how noisy a pair is on this host and what a 5% drop costs. */
export interface CalibrationTestFigure {
  test: string;
  threads: number;
  /** Pairs the calibration session measured. */
  pairs: number;
  /** Standard deviation of one pair's log ratio (outliers clipped); null under 2 pairs. */
  noise: number | null;
  /** Wall seconds of one pair. */
  pairSeconds: number;
  /** The fewest pairs that reach the calibration's drop (settings.drop); null when out of reach. */
  pairsNeeded: number | null;
  minutesNeeded: number | null;
  /** The drop the calibration's own pairs could detect. */
  detectableDrop: number;
}

export interface CalibrationInput {
  hostId: number;
  /** The done session of the target against itself that the figures come from. */
  sessionId: number;
  suite: string;
  /** The target that ran as both sides. */
  target: string;
  /** How the figures were computed (alpha, family, drop, budgets): plain JSON. */
  settings: object;
  tests: CalibrationTestFigure[];
}

export interface CalibrationRecord extends Omit<CalibrationInput, 'settings'> {
  id: number;
  /** The host's fingerprint id: a calibration speaks only for hosts with this id. */
  fingerprintId: string;
  settings: JsonObject;
  createdAt: string;
}
