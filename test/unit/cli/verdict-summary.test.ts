import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verdictSummary, type VerdictFigures } from '../../../src/cli/verdict-summary.js';

const v = (over: Partial<VerdictFigures>): VerdictFigures => ({
  kind: 'ok',
  relativeQps: 1,
  threshold: 0.95,
  low: 0.96,
  high: 1.03,
  confidence: 0.95,
  detectableDrop: 0.04,
  pairs: 12,
  ...over,
});

const cases: Array<[string, VerdictFigures, 'pair' | 'round', string]> = [
  [
    'ok states its bound and what it could detect',
    v({}),
    'pair',
    'ok, no drop larger than 4% (95% interval 0.96-1.03, detects 4%, 12 pairs)',
  ],
  [
    'unstable states the margin it cannot rule out',
    v({ kind: 'unstable', low: 0.88, high: 1.06, detectableDrop: 0.12, pairs: 8 }),
    'pair',
    'unstable: cannot rule out a drop larger than the 5% margin (95% interval 0.88-1.06, detects 12%, 8 pairs)',
  ],
  [
    'slower gives its estimate and interval with three decimals, and that it is not past the margin',
    v({ kind: 'slower', relativeQps: 0.9624, low: 0.9311, high: 0.9868, detectableDrop: 0.06, pairs: 70 }),
    'pair',
    'slower 0.962 (0.931-0.987): significantly slower, but not shown to be ' +
      'past the 5% margin (95% interval, detects 6%, 70 pairs)',
  ],
  [
    'regression with its interval',
    v({ kind: 'regression', threshold: 0.6, low: 0.2, high: 0.27, detectableDrop: 0.05, pairs: 5 }),
    'pair',
    'regression (95% interval 0.20-0.27, detects 5%, 5 pairs)',
  ],
  [
    'a whole-run session counts rounds; one round, no upper end',
    v({ kind: 'unstable', low: 0, high: null, detectableDrop: 1, pairs: 1 }),
    'round',
    'unstable: cannot rule out a drop larger than the 5% margin (95% interval 0.00-inf, detects unreachable, 1 round)',
  ],
  [
    'a verdict stored before intervals: the kind alone',
    v({ low: null, high: null, confidence: null, detectableDrop: null, pairs: null }),
    'pair',
    'ok',
  ],
];
for (const [what, verdict, unit, expected] of cases)
  test(what, () => assert.equal(verdictSummary(verdict, unit), expected));
