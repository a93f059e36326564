import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { release } from 'node:os';
import {
  fingerprintId,
  hostFingerprint,
  topologyFromPlaces,
  type HostFingerprint,
} from '../../../src/sampling/index.js';
import { cpuinfoModel, governor, numaNodes } from '../../../src/sampling/fingerprint.js';
import { readCpuTopology } from '../../../src/sampling/cpu-topology.js';
import { fixturePath } from '../../helpers/paths.js';

const fx = (name: string): string => fixturePath('sampling', name);

describe('hostFingerprint on this machine', () => {
  test('fills every field from /proc, /sys and cc, quickly (the inventory apart: inventory.test.ts)', async () => {
    const start = process.hrtime.bigint();
    const fp = await hostFingerprint('/tmp', { inventory: false });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    assert.ok(fp.cpuModel.length > 0);
    assert.ok(fp.sockets >= 1 && fp.cores >= fp.sockets && fp.threads >= fp.cores);
    assert.equal(fp.smt, fp.threads > fp.cores ? 'on' : 'off');
    assert.ok(fp.numaNodes >= 1);
    assert.ok(fp.memoryBytes > 2 ** 28);
    assert.equal(fp.kernel, release());
    assert.ok(fp.governor.length > 0);
    assert.ok(fp.dataDevice.length > 0 && fp.filesystem.length > 0 && fp.filesystem !== 'unknown');
    assert.ok(fp.compiler === 'none' || /\d+\.\d+/.test(fp.compiler), fp.compiler);
    assert.match(fingerprintId(fp), /^[0-9a-f]{16}$/);
    assert.ok(ms < 3000, `hostFingerprint took ${ms} ms`);
  });

  test('a missing compiler is "none"', async () => {
    const fp = await hostFingerprint('/tmp', { compilerArgv: ['qpswatch-no-such-cc', '--version'], inventory: false });
    assert.equal(fp.compiler, 'none');
  });
});

describe('fingerprint sources in fixtures', () => {
  test('2 sockets x 2 cores x 2 threads with an offline CPU', () => {
    assert.deepEqual(readCpuTopology(fx('sys-cpu-2s-smt')), { sockets: 2, cores: 4, threads: 8, smt: 'on' });
    assert.equal(governor(fx('sys-cpu-2s-smt')), 'performance');
    assert.equal(numaNodes(fx('sys-node-2')), 2);
  });

  test('absent sysfs parts: no governor, one NUMA node, topology unknown', () => {
    assert.equal(governor(fx('no-such-dir')), 'none');
    assert.equal(numaNodes(fx('no-such-dir')), 1);
    assert.equal(readCpuTopology(fx('no-such-dir')), undefined);
  });

  test('cpu model from cpuinfo; arm64 has none', () => {
    assert.match(cpuinfoModel(fx('cpuinfo.txt')) ?? '', /^AMD EPYC/);
    assert.equal(cpuinfoModel(fx('cpuinfo-arm.txt')), undefined);
  });

  const topologies: Array<[string, Array<[string, string]>, ReturnType<typeof topologyFromPlaces>]> = [
    [
      '1 socket, 2 cores, no SMT',
      [
        ['0', '0'],
        ['0', '1'],
      ],
      { sockets: 1, cores: 2, threads: 2, smt: 'off' },
    ],
    [
      '1 socket, 1 core, 2 threads',
      [
        ['0', '0'],
        ['0', '0'],
      ],
      { sockets: 1, cores: 1, threads: 2, smt: 'on' },
    ],
    [
      'core ids repeat across sockets',
      [
        ['0', '0'],
        ['1', '0'],
      ],
      { sockets: 2, cores: 2, threads: 2, smt: 'off' },
    ],
  ];
  for (const [name, places, expected] of topologies) {
    test(name, () =>
      assert.deepEqual(topologyFromPlaces(places.map(([packageId, coreId]) => ({ packageId, coreId }))), expected),
    );
  }
});

describe('fingerprintId', () => {
  const fp: HostFingerprint = {
    cpuModel: 'AMD EPYC',
    sockets: 1,
    cores: 2,
    threads: 2,
    smt: 'off',
    numaNodes: 1,
    memoryBytes: 25276063744,
    kernel: '6.18.44',
    governor: 'none',
    dataDevice: 'vda',
    filesystem: 'ext4',
    compiler: 'cc (Debian 12.2.0-14+deb12u1) 12.2.0',
    cpuidleDriver: 'haltpoll',
    cpuidleGovernor: 'haltpoll',
    idleStatesHeld: true,
  };

  test('is 16 hex digits and does not depend on key order', () => {
    const id = fingerprintId(fp);
    assert.match(id, /^[0-9a-f]{16}$/);
    const reversed = Object.fromEntries(Object.entries(fp).reverse()) as unknown as HostFingerprint;
    assert.equal(fingerprintId(reversed), id);
  });

  test('is sha256 of the sorted-key JSON (checked with Python), so it stays stable across releases', () => {
    assert.equal(fingerprintId(fp), 'b442dd8795a1cc50');
  });

  test('ignores a few MB of MemTotal, but not a different host', () => {
    const id = fingerprintId(fp);
    assert.equal(fingerprintId({ ...fp, memoryBytes: fp.memoryBytes - 50 * 2 ** 20 }), id);
    for (const change of [
      { memoryBytes: 2 * fp.memoryBytes },
      { kernel: '6.19.0' },
      { smt: 'on' as const },
      { filesystem: 'xfs' },
      { governor: 'powersave' },
      { idleStatesHeld: false },
      { cpuidleDriver: 'acpi_idle' },
    ]) {
      assert.notEqual(fingerprintId({ ...fp, ...change }), id, JSON.stringify(change));
    }
  });
});
