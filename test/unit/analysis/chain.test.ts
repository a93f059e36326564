import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  chainToBase,
  driftSuspected,
  stepStandardErrors,
  studentCdf,
  studentQuantile,
  welchDf,
} from '../../../src/analysis/index.js';

const close = (actual: number, expected: number, tolerance = 1e-9): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected}`);
const step = (release: string, baseline: string, ratio: number, logSe: number) => ({
  release,
  baseline,
  logEstimate: Math.log(ratio),
  logSe,
});

describe('chainToBase', () => {
  test('a 3% loss per release adds up: four releases at 0.97 each are 0.885 of the base, the variances add', () => {
    const steps = [
      step('1.1', '1.0', 0.97, 0.01),
      step('1.2', '1.1', 0.97, 0.01),
      step('1.3', '1.2', 0.97, 0.01),
      step('1.4', '1.3', 0.97, 0.01),
    ];
    const chain = chainToBase('1.0', steps, 0.95);
    const last = chain.get('1.4')!;
    close(last.relativeQps, 0.97 ** 4);
    close(last.logSe, 0.02);
    assert.equal(last.steps, 4);
    close(Math.log(last.high / last.relativeQps), 1.959964 * 0.02, 1e-6);
    assert.ok(driftSuspected(last, 0.95) && !driftSuspected(chain.get('1.1')!, 0.95));
  });
  test('a check of a release against the base re-anchors the chain', () => {
    const steps = [
      step('1.1', '1.0', 0.97, 0.01),
      step('1.2', '1.1', 0.97, 0.01),
      step('1.2', '1.0', 0.9, 0.005),
      step('1.3', '1.2', 1, 0.01),
    ];
    const chain = chainToBase('1.0', steps, 0.95);
    close(chain.get('1.2')!.relativeQps, 0.9);
    assert.equal(chain.get('1.2')!.steps, 1);
    close(chain.get('1.3')!.logSe, Math.sqrt(0.005 ** 2 + 0.01 ** 2));
  });
  test('a release whose checks do not lead back to the base has none', () => {
    const chain = chainToBase('1.0', [step('2.1', '2.0', 0.97, 0.01), step('2.0', '2.1', 1, 0.01)], 0.95);
    assert.equal(chain.size, 0);
  });
});

describe("the chain's degrees of freedom", () => {
  test('Welch-Satterthwaite: equal parts add their degrees of freedom; normal parts leave it normal', () => {
    close(
      welchDf([
        { variance: 1e-4, df: 6 },
        { variance: 1e-4, df: 6 },
      ]),
      12,
    );
    assert.equal(welchDf([{ variance: 1e-4, df: Number.POSITIVE_INFINITY }]), Number.POSITIVE_INFINITY);
  });
  test("a chain of one check of 8 pairs (6 degrees of freedom) is 95% wide with t's 2.447, not the normal 1.96", () => {
    const [one] = chainToBase('1.0', [{ ...step('1.1', '1.0', 0.97, 0.01), df: 6 }], 0.95).values();
    close(Math.log(one!.high / one!.relativeQps), 2.446912 * 0.01, 1e-6);
  });
  test('the step rule marks 1 in 370 at any degrees of freedom: 3 standard errors only for a normal error', () => {
    close(stepStandardErrors(1e6), 3.0, 2e-3);
    close(stepStandardErrors(6), studentQuantile(1 - 1 / 740, 6), 1e-12);
    assert.ok(stepStandardErrors(6) > 4.5, 'with 3, 1 in 42 boundaries were marked at 6 degrees of freedom');
    close(2 * (1 - studentCdf(3, 6)), 1 / 42, 2e-3);
  });
});
