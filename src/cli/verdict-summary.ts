import { formatConfidence, formatDetectableDrop, formatDropPercent, formatInterval } from '../report/index.js';
import type { VerdictRecord } from '../store/index.js';

export type VerdictFigures = Pick<VerdictRecord, 'kind' | 'threshold' | 'low' | 'high' | 'confidence' | 'detectableDrop' | 'pairs'>;

/**
 * A stored verdict in a few words for `status`: what it rules out (ok: "no drop larger than X%"), its interval and the
 * smallest drop the session could detect. Verdicts stored before intervals were (null figures) are the kind alone.
 * `unit` is what `pairs` counts: pairs (paired design) or rounds (whole runs).
 */
export function verdictSummary(v: VerdictFigures, unit: 'pair' | 'round'): string {
  if (v.low === null || v.confidence === null || v.detectableDrop === null || v.pairs === null) return v.kind;
  const interval = `${formatConfidence(v.confidence)} interval ${formatInterval(v.low, v.high)}`;
  const basis = `${interval}, detects ${formatDetectableDrop(v.detectableDrop)}, ${v.pairs} ${unit}${v.pairs === 1 ? '' : 's'}`;
  switch (v.kind) {
    case 'ok':
      return `ok, no drop larger than ${formatDropPercent(1 - v.low)} (${basis})`;
    case 'unstable':
      return `unstable: cannot rule out a drop larger than the ${formatDropPercent(1 - v.threshold)} margin (${basis})`;
    default:
      return `${v.kind} (${basis})`;
  }
}
