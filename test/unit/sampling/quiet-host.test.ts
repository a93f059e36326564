import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultQuietHostLimits,
  judgeQuietHost,
  QuietHostLimitError,
  type QuietHostLimits,
  type QuietHostObservation,
} from '../../../src/sampling/index.js';
import { InputError } from '../../../src/errors.js';

const GiB = 1024 ** 3;

function obs(over: Partial<QuietHostObservation> = {}): QuietHostObservation {
  return {
    windowSeconds: 5,
    busyPercent: 2,
    availableBytes: 8 * GiB,
    swapPagesPerSecond: 0,
    governors: ['none'],
    loadAverage1: 0.1,
    cpuidleDriver: 'none',
    cpuidleGovernor: 'menu',
    ...over,
  };
}

describe('judgeQuietHost', () => {
  const cases: Array<[string, Partial<QuietHostObservation>, Partial<QuietHostLimits>, string[]]> = [
    ['an idle VM', {}, {}, []],
    ['busy exactly at the limit', { busyPercent: 10 }, {}, []],
    [
      'a measured window prints without noise',
      { busyPercent: 12.34, windowSeconds: 5.0041 },
      {},
      ['CPU busy 12.3% over 5 s, limit 10% (other processes are running)'],
    ],
    [
      'busy over the limit',
      { busyPercent: 37.5 },
      {},
      ['CPU busy 37.5% over 5 s, limit 10% (other processes are running)'],
    ],
    [
      'little memory available',
      { availableBytes: 1.5 * GiB },
      {},
      ['available memory 1.5 GiB, limit 2 GiB (other processes hold memory)'],
    ],
    ['memory exactly at the limit', { availableBytes: 2 * GiB }, {}, []],
    [
      'swapping',
      { swapPagesPerSecond: 25, windowSeconds: 0.2004 },
      {},
      ['swapping 25 pages/s over 0.2 s, limit 10 pages/s'],
    ],
    ['a laptop governor with the default (any)', { governors: ['powersave'] }, {}, []],
    [
      'a laptop governor when performance is required',
      { governors: ['performance', 'powersave'] },
      { governors: ['performance'] },
      ['CPU governor powersave, allowed: performance'],
    ],
    ['no cpufreq when performance is required', { governors: ['none'] }, { governors: ['performance'] }, []],
    ['a stricter busy limit', { busyPercent: 4 }, { maxBusyPercent: 5 }, []],
    [
      'everything at once',
      { busyPercent: 80, availableBytes: 0.5 * GiB, swapPagesPerSecond: 300.25, governors: ['schedutil'] },
      { governors: ['performance', 'ondemand'] },
      [
        'CPU busy 80% over 5 s, limit 10% (other processes are running)',
        'available memory 0.5 GiB, limit 2 GiB (other processes hold memory)',
        'swapping 300.3 pages/s over 5 s, limit 10 pages/s',
        'CPU governor schedutil, allowed: performance, ondemand',
      ],
    ],
  ];
  for (const [name, o, l, reasons] of cases) {
    test(name, () => {
      const observation = obs(o);
      const verdict = judgeQuietHost(observation, { ...defaultQuietHostLimits(), ...l });
      assert.deepEqual(verdict.reasons, reasons);
      assert.equal(verdict.quiet, reasons.length === 0);
      assert.equal(verdict.observation, observation);
    });
  }

  test('defaults: 10% busy, 2 GiB, 10 pages/s, any governor; a fresh object each call', () => {
    const a = defaultQuietHostLimits();
    assert.deepEqual(a, { maxBusyPercent: 10, minAvailableBytes: 2 * GiB, maxSwapPagesPerSecond: 10, governors: [] });
    assert.notEqual(a, defaultQuietHostLimits());
  });

  const badLimits: Array<[Partial<QuietHostLimits>, RegExp]> = [
    // NaN and Infinity print as null in JSON: the message must show them as they are
    [{ maxBusyPercent: Number.NaN }, /maxBusyPercent must be a finite number >= 0, got NaN/],
    [{ maxBusyPercent: 150 }, /maxBusyPercent must be a percentage from 0 to 100, got 150/],
    [{ minAvailableBytes: -1 }, /minAvailableBytes must be a finite number >= 0, got -1/],
    [{ maxSwapPagesPerSecond: Infinity }, /maxSwapPagesPerSecond must be a finite number >= 0, got Infinity/],
    [{ governors: [''] }, /governors must be a list of governor names/],
  ];
  for (const [limits, message] of badLimits) {
    test(`refuses limits ${Object.entries(limits)
      .map(([k, v]) => `${k}=${typeof v === 'number' ? v : JSON.stringify(v)}`)
      .join()} as bad input`, () => {
      assert.throws(
        () => judgeQuietHost(obs(), { ...defaultQuietHostLimits(), ...limits }),
        (err: unknown) => err instanceof QuietHostLimitError && err instanceof InputError && message.test(err.message),
      );
    });
  }
});
