import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  collectInventory,
  findDataDevice,
  fingerprintId,
  hostFingerprint,
  inventoryHostFacts,
  type DataDevice,
  type HostFingerprint,
  type InventorySource,
} from '../../../src/sampling/index.js';
import { wholeDisks } from '../../../src/sampling/inventory-disks.js';
import { within } from '../../../src/sampling/within.js';

const GIB = 2 ** 30;

/**
 * The answers of a bare-metal server with two DIMMs and an NVMe disk under a partition, as systeminformation gives
 * them.
 */
function fakeSource(over: Partial<InventorySource> = {}): InventorySource {
  return {
    system: async () => ({ manufacturer: 'Dell Inc.', model: 'PowerEdge R650', version: '', virtual: false }),
    bios: async () => ({ vendor: 'Dell Inc.', version: '1.13.2', releaseDate: '2024-02-08' }),
    baseboard: async () => ({ manufacturer: 'Dell Inc.', model: '0PJPW3', version: 'A02' }),
    cpu: async () => ({
      manufacturer: 'Intel',
      brand: 'Xeon® Gold 6338',
      family: '6',
      model: '106',
      stepping: '6',
      speed: 2,
      speedMax: 3.2,
      flags: 'fpu vme de sse4_2 avx2',
      cache: { l1d: 3145728, l1i: 2097152, l2: 83886080, l3: 100663296 },
    }),
    memLayout: async () => [
      {
        size: 32 * GIB,
        bank: 'A1',
        type: 'DDR4',
        clockSpeed: 3200,
        formFactor: 'DIMM',
        manufacturer: 'Samsung',
        partNum: 'M393A4K40EB3-CWE',
      },
      {
        size: 32 * GIB,
        bank: 'B1',
        type: 'DDR4',
        clockSpeed: 3200,
        formFactor: 'DIMM',
        manufacturer: 'Samsung',
        partNum: 'M393A4K40EB3-CWE',
      },
      { size: 0, bank: 'A2', type: 'Unknown', clockSpeed: 0, formFactor: 'DIMM', manufacturer: '', partNum: '' },
    ],
    diskLayout: async () => [
      {
        device: '/dev/nvme0n1',
        type: 'NVMe',
        name: 'Dell Ent NVMe P5600',
        vendor: 'Dell',
        size: 1.6e12,
        firmwareRevision: '1.1.0',
        interfaceType: 'PCIe',
      },
    ],
    blockDevices: async () => [],
    osInfo: async () => ({
      distro: 'Debian GNU/Linux',
      release: '12',
      codename: 'bookworm',
      kernel: '6.1.0-18-amd64',
      arch: 'x64',
    }),
    fsSize: async () => [{ type: 'xfs', size: 1.5e12, mount: '/var/lib/qpswatch' }],
    versions: async () => ({ gcc: '12.2.0' }),
    ...over,
  };
}

function device(names: string[], mountPoint = '/var/lib/qpswatch'): DataDevice {
  const mount = {
    mountId: 30,
    major: 259,
    minor: 2,
    root: '/',
    mountPoint,
    fsType: 'xfs',
    source: '/dev/x',
    superOptions: 'rw',
  };
  return { kind: 'all-disks', path: '/var/lib/qpswatch', names, reason: 'test', mount };
}

/** A /sys/class/block with nvme0n1p2 a partition of nvme0n1, and dm-0 on sda1 + sdb. */
function fakeSysClassBlock(): string {
  const root = mkdtempSync(join(tmpdir(), 'qpswatch-sysblock-'));
  const devices = join(root, 'devices');
  mkdirSync(join(devices, 'nvme0n1', 'nvme0n1p2'), { recursive: true });
  writeFileSync(join(devices, 'nvme0n1', 'nvme0n1p2', 'partition'), '2\n');
  mkdirSync(join(devices, 'sda', 'sda1'), { recursive: true });
  writeFileSync(join(devices, 'sda', 'sda1', 'partition'), '1\n');
  mkdirSync(join(devices, 'sdb'), { recursive: true });
  mkdirSync(join(devices, 'dm-0', 'slaves'), { recursive: true });
  writeFileSync(join(devices, 'dm-0', 'slaves', 'sda1'), '');
  writeFileSync(join(devices, 'dm-0', 'slaves', 'sdb'), '');
  const cls = join(root, 'class');
  mkdirSync(cls);
  for (const [name, dir] of [
    ['nvme0n1', 'nvme0n1'],
    ['nvme0n1p2', 'nvme0n1/nvme0n1p2'],
    ['sda', 'sda'],
    ['sda1', 'sda/sda1'],
    ['sdb', 'sdb'],
    ['dm-0', 'dm-0'],
  ] as const) {
    symlinkSync(join(devices, dir), join(cls, name));
  }
  return root;
}

describe('collectInventory with a fake systeminformation', () => {
  test(
    'shapes every source; serials left out, empty DIMM slots skipped, the ' + 'partition mapped to its disk',
    async (t) => {
      const sys = fakeSysClassBlock();
      t.after(() => rmSync(sys, { recursive: true, force: true }));
      const inv = await collectInventory(device(['nvme0n1p2']), {
        source: fakeSource(),
        sysClassBlock: join(sys, 'class'),
      });
      assert.deepEqual(inv.system, {
        manufacturer: 'Dell Inc.',
        model: 'PowerEdge R650',
        version: 'unknown',
        virtualization: 'none',
      });
      assert.deepEqual(inv.firmware, { vendor: 'Dell Inc.', version: '1.13.2', releaseDate: '2024-02-08' });
      assert.equal(inv.cpu.cacheL3Bytes, 100663296);
      assert.equal(inv.cpu.speedMaxGHz, 3.2);
      assert.equal(inv.memory.installedBytes, 64 * GIB);
      assert.equal(inv.memory.modules.length, 2);
      assert.deepEqual(inv.memory.modules[0], {
        bank: 'A1',
        sizeBytes: 32 * GIB,
        type: 'DDR4',
        clockMHz: 3200,
        formFactor: 'DIMM',
        manufacturer: 'Samsung',
        partNumber: 'M393A4K40EB3-CWE',
      });
      assert.deepEqual(inv.disks, [
        {
          device: 'nvme0n1',
          model: 'Dell Ent NVMe P5600',
          vendor: 'Dell',
          type: 'NVMe',
          interface: 'PCIe',
          sizeBytes: 1.6e12,
          firmware: '1.1.0',
        },
      ]);
      assert.deepEqual(inv.filesystem, { mount: '/var/lib/qpswatch', type: 'xfs', sizeBytes: 1.5e12 });
      assert.equal(inv.tools.gcc, '12.2.0');
      assert.deepEqual(inv.unavailable, {});
      assert.doesNotMatch(JSON.stringify(inv), /serial/i);
      assert.deepEqual(inventoryHostFacts(inv), { system: 'Dell Inc. PowerEdge R650', virt: 'none', diskType: 'NVMe' });
    },
  );

  test(
    'a VM without DMI: virtualization from the CPU flag, the disk from the ' +
      'block list (the layout leaves out a bare vda)',
    async () => {
      const inv = await collectInventory(device(['vda'], '/'), {
        source: fakeSource({
          system: async () => ({ manufacturer: '', model: 'Docker Container', version: '', virtual: false }),
          cpu: async () => ({
            manufacturer: 'AMD',
            brand: 'EPYC',
            family: '26',
            model: '2',
            stepping: '1',
            speed: 0,
            speedMax: 0,
            flags: 'fpu hypervisor avx2',
            cache: { l1d: 0, l1i: 0, l2: 0, l3: 0 },
          }),
          diskLayout: async () => [],
          blockDevices: async () => [{ name: 'vda', size: 274877906944, physical: 'HDD', model: '', protocol: '' }],
        }),
        sysClassBlock: '/nonexistent',
      });
      assert.equal(inv.system.virtualization, 'vm');
      assert.equal(inv.cpu.speedGHz, 'unknown');
      assert.deepEqual(inv.disks, [
        {
          device: 'vda',
          model: 'unknown',
          vendor: 'unknown',
          type: 'HDD',
          interface: 'unknown',
          sizeBytes: 274877906944,
          firmware: 'unknown',
        },
      ]);
      assert.deepEqual(inventoryHostFacts(inv), { system: 'Docker Container', virt: 'vm', diskType: 'HDD' });
    },
  );

  test('systeminformation naming the hypervisor wins over the flag', async () => {
    const inv = await collectInventory(device(['vda']), {
      source: fakeSource({
        system: async () => ({
          manufacturer: 'QEMU',
          model: 'Standard PC',
          version: '',
          virtual: true,
          virtualHost: 'KVM',
        }),
      }),
      sysClassBlock: '/nonexistent',
    });
    assert.equal(inv.system.virtualization, 'KVM');
  });

  test(
    'a throwing, a rejecting and a hanging source leave their facts unknown ' + 'within the timeout; the others stay',
    async () => {
      const hung: Array<() => void> = [];
      const start = performance.now();
      const inv = await collectInventory(device(['vda']), {
        timeoutMs: 100,
        sysClassBlock: '/nonexistent',
        source: fakeSource({
          system: () => {
            throw new Error('dmidecode: permission denied');
          },
          memLayout: () => Promise.reject(new Error('no DMI table')),
          // Never settles, like si.versions('systemOpenssl') in systeminformation 5.33 (its names are lower-cased).
          osInfo: () =>
            new Promise((resolve) =>
              hung.push(() => resolve({ distro: 'late', release: '', codename: '', kernel: '', arch: '' })),
            ),
        }),
      });
      const ms = performance.now() - start;
      assert.ok(ms < 1000, `took ${ms} ms`);
      // No system answer and no hypervisor flag: whether it is a VM is not known.
      assert.deepEqual(inv.system, {
        manufacturer: 'unknown',
        model: 'unknown',
        version: 'unknown',
        virtualization: 'unknown',
      });
      assert.deepEqual(inv.memory, { installedBytes: 'unknown', modules: [] });
      assert.deepEqual(inv.os, {
        distro: 'unknown',
        release: 'unknown',
        codename: 'unknown',
        kernel: 'unknown',
        arch: 'unknown',
      });
      assert.deepEqual(inv.unavailable, {
        system: 'dmidecode: permission denied',
        memLayout: 'no DMI table',
        osInfo: 'no answer within 100 ms',
      });
      assert.equal(inv.firmware.version, '1.13.2');
      for (const settle of hung) settle(); // a late answer is dropped, not an error
    },
  );
});

describe('within', () => {
  test('answers, reasons and timeouts', async () => {
    assert.deepEqual(await within(async () => 7, 50), { ok: true, value: 7 });
    assert.deepEqual(await within(() => Promise.reject(new Error('no')), 50), { ok: false, reason: 'no' });
    let timer: NodeJS.Timeout | undefined;
    const slow = await within(() => new Promise((resolve) => (timer = setTimeout(resolve, 5000))), 20);
    clearTimeout(timer);
    assert.deepEqual(slow, { ok: false, reason: 'no answer within 20 ms' });
  });
});

describe('wholeDisks', () => {
  test('a partition gives its disk, a dm device its members (followed down), a disk itself', (t) => {
    const sys = fakeSysClassBlock();
    t.after(() => rmSync(sys, { recursive: true, force: true }));
    const cls = join(sys, 'class');
    assert.deepEqual(wholeDisks(['nvme0n1p2'], cls), ['nvme0n1']);
    assert.deepEqual(wholeDisks(['dm-0'], cls), ['sda', 'sdb']);
    assert.deepEqual(wholeDisks(['vda'], cls), ['vda']);
  });
});

describe('the inventory and the fingerprint id', () => {
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

  test(
    'an inventory, whatever it holds, leaves the id as it was (the same id ' + 'as fingerprint.test.ts pins)',
    async () => {
      const inventory = await collectInventory(device(['vda']), {
        source: fakeSource(),
        sysClassBlock: '/nonexistent',
      });
      assert.equal(fingerprintId({ ...fp, inventory }), 'b442dd8795a1cc50');
      const other = await collectInventory(device(['vda']), {
        source: fakeSource({
          bios: async () => ({ vendor: 'Dell Inc.', version: '2.0.0', releaseDate: '2025-01-01' }),
        }),
        sysClassBlock: '/nonexistent',
      });
      assert.equal(fingerprintId({ ...fp, inventory: other }), 'b442dd8795a1cc50');
    },
  );
});

describe('the real systeminformation on this host', () => {
  test(
    'hostFingerprint stores an inventory whose memory and kernel agree with ' + '/proc, without changing the id',
    async () => {
      const start = performance.now();
      const withInventory = await hostFingerprint('/tmp');
      const ms = performance.now() - start;
      const { inventory, ...identity } = withInventory;
      assert.ok(inventory !== undefined);
      assert.equal(fingerprintId(withInventory), fingerprintId(identity));
      assert.equal(fingerprintId(withInventory), fingerprintId(await hostFingerprint('/tmp', { inventory: false })));
      const memTotal = Number(/^MemTotal:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]) * 1024;
      assert.equal(withInventory.memoryBytes, memTotal);
      // DIMMs (dmidecode) add up to the installed size, a few percent above MemTotal; without DMI it is MemTotal
      // itself.
      const installed = inventory.memory.installedBytes;
      assert.ok(
        installed === 'unknown' || (installed >= memTotal && installed <= memTotal * 1.15),
        `installed ${installed}, MemTotal ${memTotal}`,
      );
      assert.equal(inventory.os.kernel, release());
      assert.notEqual(inventory.cpu.manufacturer, 'unknown');
      assert.equal(inventory.filesystem.type, findDataDevice('/tmp').mount?.fsType);
      assert.ok(typeof inventory.filesystem.sizeBytes === 'number' && inventory.filesystem.sizeBytes > 2 ** 20);
      assert.ok(inventory.disks.length > 0 && inventory.disks.every((d) => d.device.length > 0));
      assert.ok(inventory.system.virtualization.length > 0);
      assert.deepEqual(inventory.unavailable, {});
      assert.ok(ms < 20_000, `the inventory took ${ms} ms`);
    },
  );
});
