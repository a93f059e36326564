import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHost } from '../../../src/cli/host-command.js';
import type { HostInventory } from '../../../src/sampling/index.js';

const inventory: HostInventory = {
  system: { manufacturer: 'QEMU', model: 'Standard PC (Q35 + ICH9, 2009)', version: 'unknown', virtualization: 'KVM' },
  firmware: { vendor: 'SeaBIOS', version: '1.16.2', releaseDate: '2014-04-01' },
  board: { manufacturer: 'unknown', model: 'unknown', version: 'unknown' },
  cpu: {
    manufacturer: 'AMD',
    brand: 'EPYC',
    family: '26',
    model: '2',
    stepping: '1',
    speedGHz: 'unknown',
    speedMaxGHz: 'unknown',
    cacheL1dBytes: 'unknown',
    cacheL1iBytes: 'unknown',
    cacheL2Bytes: 1048576,
    cacheL3Bytes: 'unknown',
  },
  memory: {
    installedBytes: 8589934592,
    modules: [
      {
        bank: 'DIMM 0',
        sizeBytes: 8589934592,
        type: 'RAM',
        clockMHz: 'unknown',
        formFactor: 'DIMM',
        manufacturer: 'QEMU',
        partNumber: 'unknown',
      },
    ],
  },
  disks: [
    {
      device: 'vda',
      model: 'unknown',
      vendor: 'unknown',
      type: 'HDD',
      interface: 'unknown',
      sizeBytes: 274877906944,
      firmware: 'unknown',
    },
  ],
  os: { distro: 'Debian GNU/Linux', release: '12', codename: 'bookworm', kernel: '6.1.0-18-amd64', arch: 'x64' },
  filesystem: { mount: '/', type: 'ext4', sizeBytes: 270553174016 },
  tools: { gcc: '12.2.0' },
  unavailable: { diskLayout: 'no answer within 10000 ms' },
};

test('qpswatch host: the fingerprint facts, then the inventory under them, control characters escaped', () => {
  const text = renderHost(
    [
      ['fingerprintId', 'b442dd8795a1cc50'],
      ['cpuModel', 'AMD EPYC\u001b[2J'],
    ],
    inventory,
  );
  const lines = text.trimEnd().split('\n');
  assert.match(lines[0] ?? '', /^fingerprintId\s+b442dd8795a1cc50$/);
  assert.match(lines[1] ?? '', /^cpuModel\s+AMD EPYC\\x1b\[2J$/);
  assert.match(lines[2] ?? '', /^inventory\s+\(does not change the id\)$/);
  assert.match(text, /^ {2}system\.virtualization\s+KVM$/m);
  assert.match(text, /^ {2}memory\.module0\s+bank=DIMM 0 sizeBytes=8589934592 type=RAM clockMHz=unknown/m);
  assert.match(text, /^ {2}disk0\s+device=vda model=unknown vendor=unknown type=HDD/m);
  assert.match(text, /^ {2}unavailable\.diskLayout\s+no answer within 10000 ms$/m);
});

test('qpswatch host: a fingerprint without an inventory prints its facts alone', () => {
  assert.equal(
    renderHost(
      [
        ['fingerprintId', 'b442dd8795a1cc50'],
        ['smt', 'off'],
      ],
      undefined,
    ),
    'fingerprintId  b442dd8795a1cc50\nsmt            off\n',
  );
});
