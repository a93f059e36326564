import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import {
  DataDeviceError,
  describeDataDevice,
  findDataDevice,
  parseDiskstats,
  splitDev,
  wholePhysicalDisks,
  type DataDeviceOptions,
  type DevNumber,
} from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

/** The container fixture: stat() answers and symlinks are given, since these paths do not exist here. */
function containerOptions(devs: Record<string, DevNumber>, links: Record<string, string> = {}): DataDeviceOptions {
  return {
    paths: {
      procDiskstats: fixturePath('sampling', 'diskstats-container.txt'),
      procMountinfo: fixturePath('sampling', 'mountinfo-container.txt'),
      sysBlock: fixturePath('sampling', 'sys-block-container'),
    },
    devOf: (p) => {
      const dev = devs[p];
      if (dev === undefined) throw new Error(`test has no dev for ${p}`);
      return dev;
    },
    realpath: (p) => {
      if (p.startsWith('/dev/') && !(p in links)) throw new Error(`ENOENT ${p}`);
      return links[p] ?? p;
    },
  };
}

describe('findDataDevice on this machine', () => {
  for (const folder of ['/work', '/tmp']) {
    test(`names a device of /proc/diskstats for ${folder}`, () => {
      const device = findDataDevice(folder);
      const known = parseDiskstats(readFileSync('/proc/diskstats', 'utf8')).map((d) => d.name);
      for (const name of device.names) assert.ok(known.includes(name), `${name} is in /proc/diskstats`);
      assert.ok(device.mount !== undefined, 'the mount is found');
      if (device.kind === 'device' && device.via === 'stat') {
        assert.deepEqual(
          { major: device.major, minor: device.minor },
          splitDev(statSync(folder, { bigint: true }).dev),
        );
      }
    });
  }

  test('a folder that does not exist is a DataDeviceError that says to create it', () => {
    assert.throws(
      () => findDataDevice('/nonexistent/qpswatch-data'),
      (err: unknown) => err instanceof DataDeviceError && /create it first/.test(err.message),
    );
  });
});

describe('findDataDevice with fixture files', () => {
  test('a volume whose stat() dev is in diskstats: the partition, via stat', () => {
    const d = findDataDevice('/var/lib/mysql', containerOptions({ '/var/lib/mysql': { major: 259, minor: 2 } }));
    assert.equal(d.kind, 'device');
    assert.equal(describeDataDevice(d), 'nvme0n1p2');
    assert.deepEqual(d.kind === 'device' && [d.via, d.major, d.minor], ['stat', 259, 2]);
    assert.equal(d.mount?.fsType, 'ext4');
  });

  test('a btrfs subvolume (anonymous dev 0:45): the mount source, via mountinfo', () => {
    const d = findDataDevice('/data/db', containerOptions({ '/data/db': { major: 0, minor: 45 } }));
    assert.deepEqual(d.kind === 'device' && [d.name, d.via, d.major, d.minor], ['sdb1', 'mountinfo', 8, 17]);
    assert.equal(d.mount?.fsType, 'btrfs');
  });

  test('a device-mapper source: the /dev/mapper symlink is followed to dm-0', () => {
    const opts = containerOptions({ '/data/old/db': { major: 0, minor: 47 } }, { '/dev/mapper/vg-fast': '/dev/dm-0' });
    assert.equal(describeDataDevice(findDataDevice('/data/old/db', opts)), 'dm-0');
  });

  const fallbacks: Array<[string, number, RegExp]> = [
    ['/var/lib/other', 150, /on overlay "overlay" mounted at \/ \(dev 0:150\)/],
    ['/tmp/db', 153, /on tmpfs "tmpfs" mounted at \/tmp/],
    ['/tank/db', 49, /on zfs "tank\/db"/],
  ];
  for (const [path, minor, reason] of fallbacks) {
    test(`${path} has no block device: all whole physical disks, with the reason`, () => {
      const d = findDataDevice(path, containerOptions({ [path]: { major: 0, minor } }));
      assert.equal(d.kind, 'all-disks');
      assert.deepEqual(d.names, ['nvme0n1', 'sdb']); // no partitions, no loop, dm or zram
      assert.equal(describeDataDevice(d), 'all-disks:nvme0n1+sdb');
      assert.match(d.kind === 'all-disks' ? d.reason : '', reason);
    });
  }

  test('no physical disk at all is a DataDeviceError', () => {
    const opts = containerOptions({ '/tmp/db': { major: 0, minor: 153 } });
    opts.paths = { ...opts.paths, sysBlock: fixturePath('sampling', 'no-such-sys-block') };
    assert.throws(
      () => findDataDevice('/tmp/db', opts),
      (err: unknown) => err instanceof DataDeviceError && /no physical disk/.test(err.message),
    );
  });

  test('the real /sys/block lists only disks that are in /proc/diskstats', () => {
    const names = parseDiskstats(readFileSync('/proc/diskstats', 'utf8')).map((d) => d.name);
    for (const disk of wholePhysicalDisks('/sys/block')) assert.ok(names.includes(disk));
  });
});

describe('splitDev', () => {
  const cases: Array<[bigint, number, number]> = [
    [0xfe00n, 254, 0], // vda on this VM
    [0x811n, 8, 17], // sdb1
    [0x10302n, 259, 2], // nvme0n1p2 is 259:2 = 0x103 << 8 | 2
    [0x1000_1000_0105n, 0x1001, 0x10005], // high bits of both parts (glibc layout)
  ];
  for (const [dev, major, minor] of cases) {
    test(`0x${dev.toString(16)} is ${major}:${minor}`, () => assert.deepEqual(splitDev(dev), { major, minor }));
  }
});
