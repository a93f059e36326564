import type { TestId } from './tests.js';

/** One test of a calibration (`qpswatch calibrate`): how noisy a pair is on this host and what a drop costs. */
export interface CalibrationFigure extends TestId {
  /** Pairs the calibration session measured. */
  pairs: number;
  /** Standard deviation of one pair's log ratio (outliers clipped); null under 2 pairs. */
  noise: number | null;
  /** Wall seconds of one pair (both halves and what runs between them). */
  pairSeconds: number;
  /** The fewest pairs whose detectable drop is at most the calibration's drop; null when out of reach. */
  pairsNeeded: number | null;
  /** pairsNeeded x pairSeconds, in minutes; null with pairsNeeded. */
  minutesNeeded: number | null;
  /** The drop the calibration's own pairs could detect. */
  detectableDrop: number;
  /**
   * The sd of one server instance's offset for this test (log units), from how much more the blocks' means spread
   * than their pairs explain; null under 3 blocks, absent from calibrations before it was measured.
   */
  instanceSpread?: number | null;
}
