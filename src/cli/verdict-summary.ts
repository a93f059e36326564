import {
  formatConfidence,
  formatDetectableDrop,
  formatDropPercent,
  formatOkBound,
  formatInterval,
  formatSlowerEstimate,
} from '../report/index.js';
import { testLabel, type TestId, type VerdictKind } from '../model/index.js';
import type { VerdictRecord } from '../store/index.js';

export type VerdictFigures = Pick<
  VerdictRecord,
  'kind' | 'relativeQps' | 'threshold' | 'low' | 'high' | 'confidence' | 'detectableDrop' | 'pairs'
>;

/**
 * A stored verdict in a few words for `status`: what it rules out (ok: "no drop larger than X%"; slower: its estimate
 * and interval, which ends under 1), its interval and the smallest drop the session could detect. Verdicts stored
 * before intervals were (null figures) are the kind alone.
 * `unit` is what `pairs` counts: pairs (paired design) or rounds (whole runs).
 */
export function verdictSummary(v: VerdictFigures, unit: 'pair' | 'round'): string {
  if (v.low === null || v.confidence === null || v.detectableDrop === null || v.pairs === null) return v.kind;
  const interval = `${formatConfidence(v.confidence)} interval ${formatInterval(v.low, v.high)}`;
  const reach = `detects ${formatDetectableDrop(v.detectableDrop)}, ${v.pairs} ${unit}${v.pairs === 1 ? '' : 's'}`;
  const basis = `${interval}, ${reach}`;
  switch (v.kind) {
    case 'ok':
      return `ok, ${formatOkBound(v.low)} (${basis})`;
    case 'slower':
      return (
        `slower ${formatSlowerEstimate(v.relativeQps, v.low, v.high)}: ` +
        `significantly slower, but not shown to be past the ` +
        `${formatDropPercent(1 - v.threshold)} margin ` +
        `(${formatConfidence(v.confidence)} interval, ${reach})`
      );
    case 'unstable':
      return `unstable: cannot rule out a drop larger than the ${formatDropPercent(1 - v.threshold)} margin (${basis})`;
    default:
      return `${v.kind} (${basis})`;
  }
}

/**
 * The tests that keep a check from last good without a regression (docs/verdicts.md): "undecided a.t1; slower b.t1",
 * or '' when every test was decided.
 */
export function undecidedTests(verdicts: ReadonlyArray<TestId & { kind: VerdictKind }>): string {
  const named = (kind: VerdictKind): string[] => verdicts.filter((v) => v.kind === kind).map(testLabel);
  const [unstable, slower] = [named('unstable'), named('slower')];
  return [
    unstable.length > 0 ? `undecided ${unstable.join(', ')}` : '',
    slower.length > 0 ? `slower ${slower.join(', ')}` : '',
  ]
    .filter((p) => p !== '')
    .join('; ');
}
