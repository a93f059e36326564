import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  CounterWrapError,
  DataDeviceError,
  diffHostSnapshots,
  findDataDevice,
  SamplingIntervalError,
  snapshotFromText,
  takeHostSnapshot,
  type DataDevice,
  type HostSnapshot,
} from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

const fixture = (name: string): string => readFileSync(fixturePath('sampling', name), 'utf8');
const vda: DataDevice = {
  kind: 'device',
  path: '/work',
  names: ['vda'],
  mount: undefined,
  name: 'vda',
  major: 254,
  minor: 0,
  via: 'stat',
};

/** The real interval capture, with a 2 s span so the rates are easy to check by hand. */
function capturedInterval(): [HostSnapshot, HostSnapshot] {
  return [
    snapshotFromText(
      fixture('interval-before-stat.txt'),
      fixture('interval-before-diskstats.txt'),
      vda,
      1_000_000_000n,
    ),
    snapshotFromText(fixture('interval-after-stat.txt'), fixture('interval-after-diskstats.txt'), vda, 3_000_000_000n),
  ];
}

const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} is not ${expected}`);

describe('diffHostSnapshots', () => {
  test('the captured interval, checked by hand', () => {
    // cpu deltas: user 4, nice 0, system 20, idle 183, iowait 2, irq 0, softirq 0, steal 2 -> 211 jiffies.
    // ctxt 431167 -> 432433 = 1266. vda: reads 8, sectors read 224 (112 KB), writes 10, sectors written 32824 (16412
    // KB).
    const [before, after] = capturedInterval();
    const u = diffHostSnapshots(before, after);
    assert.equal(u.seconds, 2);
    assert.equal(u.cpus, 2);
    assert.equal(u.device, 'vda');
    close(u.usPct, (4 / 211) * 100, 'usPct');
    close(u.syPct, (20 / 211) * 100, 'syPct');
    close(u.cpuBusyPct, (24 / 211) * 100, 'cpuBusyPct');
    close(u.iowaitPct, (2 / 211) * 100, 'iowaitPct');
    close(u.csPerSec, 633, 'csPerSec');
    close(u.readsPerSec, 4, 'readsPerSec');
    close(u.readKBPerSec, 56, 'readKBPerSec');
    close(u.writesPerSec, 5, 'writesPerSec');
    close(u.writeKBPerSec, 8206, 'writeKBPerSec');
  });

  test('snapshots in the wrong order are refused', () => {
    const [before, after] = capturedInterval();
    assert.throws(() => diffHostSnapshots(after, before), SamplingIntervalError);
    assert.throws(() => diffHostSnapshots(before, { ...after, atNs: before.atNs }), /not later than the first/);
  });

  test('a counter that went backwards is a CounterWrapError naming it', () => {
    const [before, after] = capturedInterval();
    assert.throws(
      () => diffHostSnapshots(before, { ...after, disk: { ...after.disk, sectorsWritten: 5 } }),
      (err: unknown) => err instanceof CounterWrapError && err.counter === 'disk.sectorsWritten' && err.after === 5,
    );
    assert.throws(
      () => diffHostSnapshots(before, { ...after, ctxt: 0 }),
      (err: unknown) => err instanceof CounterWrapError && err.counter === 'ctxt',
    );
    assert.throws(
      () => diffHostSnapshots(before, { ...after, cpu: { ...after.cpu, idle: 0 } }),
      /cpu\.idle went backwards/,
    );
  });

  test('a CPU count change, another device or no tick in between are refused', () => {
    const [before, after] = capturedInterval();
    assert.throws(() => diffHostSnapshots(before, { ...after, cpus: 3 }), /online CPUs changed \(2 -> 3\)/);
    assert.throws(() => diffHostSnapshots(before, { ...after, device: 'sdb' }), /different devices/);
    assert.throws(
      () => diffHostSnapshots(before, { ...before, atNs: before.atNs + 1000n }),
      /shorter than one clock tick/,
    );
  });

  test('a device that vanished from diskstats is a DataDeviceError', () => {
    const gone: DataDevice = { ...vda, names: ['sdz'], name: 'sdz' };
    assert.throws(
      () => snapshotFromText(fixture('interval-before-stat.txt'), fixture('interval-before-diskstats.txt'), gone, 0n),
      DataDeviceError,
    );
  });
});

describe('takeHostSnapshot on this machine', () => {
  test('two snapshots around some work make a sane, finite HostUsage', async () => {
    const device = findDataDevice('/tmp');
    const before = takeHostSnapshot(device);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const after = takeHostSnapshot(device);
    const u = diffHostSnapshots(before, after);
    assert.ok(u.seconds >= 0.14 && u.seconds < 5, `seconds ${u.seconds}`);
    for (const [key, value] of Object.entries(u)) {
      if (typeof value === 'number') assert.ok(Number.isFinite(value) && value >= 0, `${key} = ${value}`);
    }
    assert.ok(u.cpuBusyPct <= 100 && u.iowaitPct <= 100);
    assert.equal(u.cpus, before.cpus);
  });

  test('costs well under a millisecond (the observer must not move the result)', () => {
    const device = findDataDevice('/tmp');
    for (let i = 0; i < 20; i += 1) takeHostSnapshot(device); // warm the JIT
    const rounds = 200;
    const start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i += 1) takeHostSnapshot(device);
    const microsEach = Number(process.hrtime.bigint() - start) / 1e3 / rounds;
    // Two snapshots per run of >= 10 s: even 5 ms would be 0.05% of the run. The bound leaves room for a busy CI host.
    assert.ok(microsEach < 5000, `takeHostSnapshot took ${microsEach.toFixed(1)} us`);
  });
});
