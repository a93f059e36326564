import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  HostNotFoundError,
  InvalidRecordError,
  SessionNotFoundError,
  type CalibrationInput,
  type Store,
} from '../../../src/store/index.js';
import type { CalibrationFigure } from '../../../src/model/index.js';
import { hostInput, sessionInput } from './store-inputs.js';

function figure(overrides: Partial<CalibrationFigure> = {}): CalibrationFigure {
  return {
    test: 'point-query',
    threads: 1,
    pairs: 12,
    noise: 0.048,
    pairSeconds: 6.8,
    pairsNeeded: 24,
    minutesNeeded: 2.72,
    detectableDrop: 0.061,
    ...overrides,
  };
}

function calibrationInput(
  hostId: number,
  sessionId: number,
  overrides: Partial<CalibrationInput> = {},
): CalibrationInput {
  return {
    hostId,
    sessionId,
    suite: 'quick',
    target: 'relaxed',
    settings: { alpha: 0.01, family: 16, drop: 0.05 },
    tests: [
      figure(),
      figure({ test: 'update-index', noise: null, pairsNeeded: null, minutesNeeded: null, detectableDrop: 1 }),
    ],
    ...overrides,
  };
}

/** Host calibrations (`qpswatch calibrate`), for every backend. */
export function calibrationContract(backend: string, open: () => Promise<Store>): void {
  describe(`${backend} store: calibrations`, () => {
    const withStore = (body: (store: Store) => Promise<void>) => async () => {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    };
    async function doneSession(
      store: Store,
      fingerprintId = 'fp-4c-16g-nvme',
    ): Promise<{ hostId: number; sessionId: number }> {
      const hostId = await store.upsertHost(hostInput({ fingerprintId }));
      const sessionId = await store.createSession(sessionInput(hostId));
      await store.finishSession(sessionId);
      return { hostId, sessionId };
    }

    test(
      'recordCalibration keeps every figure, null ones included, and names the host by its fingerprint id',
      withStore(async (store) => {
        const { hostId, sessionId } = await doneSession(store);
        const record = await store.recordCalibration(calibrationInput(hostId, sessionId));
        assert.equal(record.fingerprintId, 'fp-4c-16g-nvme');
        assert.deepEqual(
          [record.hostId, record.sessionId, record.suite, record.target],
          [hostId, sessionId, 'quick', 'relaxed'],
        );
        assert.deepEqual(record.settings, { alpha: 0.01, family: 16, drop: 0.05 });
        assert.deepEqual(record.tests, calibrationInput(hostId, sessionId).tests);
        assert.match(record.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.equal(record.instanceSpread, null, 'not measured: none');
        assert.deepEqual(await store.latestCalibration('fp-4c-16g-nvme', 'quick'), record);
      }),
    );

    test(
      'the spread between server instances is kept with the calibration (schema 19)',
      withStore(async (store) => {
        const { hostId, sessionId } = await doneSession(store);
        const tests = [figure({ instanceSpread: 0.021 }), figure({ test: 'insert', instanceSpread: null })];
        const record = await store.recordCalibration(
          calibrationInput(hostId, sessionId, { instanceSpread: 0.021, tests }),
        );
        assert.equal(record.instanceSpread, 0.021);
        assert.deepEqual(record.tests, tests);
        assert.equal((await store.latestCalibration('fp-4c-16g-nvme', 'quick'))?.instanceSpread, 0.021);
      }),
    );

    test(
      'latestCalibration is the newest of that host and suite; other hosts and suites do not count',
      withStore(async (store) => {
        const here = await doneSession(store);
        const other = await doneSession(store, 'fp-other');
        const first = await store.recordCalibration(calibrationInput(here.hostId, here.sessionId));
        const newer = await store.recordCalibration(
          calibrationInput(here.hostId, here.sessionId, { tests: [figure({ noise: 0.03 })] }),
        );
        await store.recordCalibration(calibrationInput(here.hostId, here.sessionId, { suite: 'small-server' }));
        await store.recordCalibration(calibrationInput(other.hostId, other.sessionId));
        assert.equal((await store.latestCalibration('fp-4c-16g-nvme', 'quick'))?.id, newer.id);
        assert.notEqual(newer.id, first.id);
        assert.equal(await store.latestCalibration('fp-4c-16g-nvme', 'many-threads'), undefined);
        assert.equal(await store.latestCalibration('fp-unknown', 'quick'), undefined);
        assert.deepEqual(
          (await store.calibrationsOfHost('fp-4c-16g-nvme')).map((c) => c.suite),
          ['small-server', 'quick', 'quick'],
        );
        assert.deepEqual(await store.calibrationsOfHost('fp-unknown'), []);
      }),
    );

    test(
      'only a done session of a known host is accepted',
      withStore(async (store) => {
        const { hostId, sessionId } = await doneSession(store);
        const running = await store.createSession(sessionInput(hostId));
        await assert.rejects(
          store.recordCalibration(calibrationInput(hostId, running)),
          (e: unknown) => e instanceof InvalidRecordError && e.field === 'sessionId' && /done session/.test(e.message),
        );
        await assert.rejects(store.recordCalibration(calibrationInput(hostId, 999)), SessionNotFoundError);
        await assert.rejects(store.recordCalibration(calibrationInput(999, sessionId)), HostNotFoundError);
        assert.deepEqual(await store.calibrationsOfHost('fp-4c-16g-nvme'), []);
      }),
    );

    const bad: Array<[string, (i: CalibrationInput) => unknown, string]> = [
      ['a NaN noise', (i) => ({ ...i, tests: [figure({ noise: Number.NaN })] }), 'tests[0].noise'],
      ['a negative pair time', (i) => ({ ...i, tests: [figure({ pairSeconds: -1 })] }), 'tests[0].pairSeconds'],
      [
        'a detectable drop over 1',
        (i) => ({ ...i, tests: [figure({ detectableDrop: 1.5 })] }),
        'tests[0].detectableDrop',
      ],
      ['fractional pairs needed', (i) => ({ ...i, tests: [figure({ pairsNeeded: 2.5 })] }), 'tests[0].pairsNeeded'],
      ['no tests', (i) => ({ ...i, tests: [] }), 'tests'],
      ['a negative instance spread', (i) => ({ ...i, instanceSpread: -0.01 }), 'instanceSpread'],
      ['an empty suite', (i) => ({ ...i, suite: '' }), 'suite'],
      ['settings that are not an object', (i) => ({ ...i, settings: 'alpha' }), 'settings'],
    ];
    for (const [name, change, field] of bad) {
      test(
        `${name} is refused, naming ${field}, and nothing is stored`,
        withStore(async (store) => {
          const { hostId, sessionId } = await doneSession(store);
          await assert.rejects(
            store.recordCalibration(change(calibrationInput(hostId, sessionId)) as CalibrationInput),
            (e: unknown) => e instanceof InvalidRecordError && e.record === 'calibration' && e.field === field,
          );
          assert.deepEqual(await store.calibrationsOfHost('fp-4c-16g-nvme'), []);
        }),
      );
    }
  });
}
