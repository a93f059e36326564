import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { findMount, parseMountinfo, ProcParseError } from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

const fixture = (name: string): string => readFileSync(fixturePath('sampling', name), 'utf8');

describe('parseMountinfo and findMount', () => {
  test('reads the real capture: / is ext4 on /dev/vda (254:0)', () => {
    const mounts = parseMountinfo(fixture('mountinfo.txt'));
    assert.equal(mounts.length, 20);
    const root = findMount(mounts, '/work/main');
    assert.deepEqual(
      {
        major: root?.major,
        minor: root?.minor,
        mountPoint: root?.mountPoint,
        fsType: root?.fsType,
        source: root?.source,
      },
      { major: 254, minor: 0, mountPoint: '/', fsType: 'ext4', source: '/dev/vda' },
    );
    assert.equal(findMount(mounts, '/dev/shm/x')?.fsType, 'tmpfs');
    assert.equal(findMount(mounts, '/sys/fs/cgroup/cpu')?.superOptions, 'rw,cpu');
  });

  const cases: Array<[string, string, string]> = [
    ['/var/lib/mysql/ibdata1', '/var/lib/mysql', '/dev/nvme0n1p2'],
    ['/var/lib/mysqlx', '/', 'overlay'], // a sibling with the same prefix is not under the mount
    ['/data/db', '/data', '/dev/sdb1'],
    ['/data/old/db', '/data/old', '/dev/mapper/vg-fast'], // stacked: the later mount hides the earlier
    ['/srv/my data/db', '/srv/my data', '/dev/sdb1'], // \040 in mountinfo is a space
    ['/tank/db', '/tank', 'tank/db'],
  ];
  for (const [path, mountPoint, source] of cases) {
    test(`finds the mount of ${path}`, () => {
      const m = findMount(parseMountinfo(fixture('mountinfo-container.txt')), path);
      assert.equal(m?.mountPoint, mountPoint);
      assert.equal(m?.source, source);
    });
  }

  test('a line without the " - " separator is an error naming the line', () => {
    assert.throws(
      () => parseMountinfo(fixture('mountinfo-garbage.txt'), 'fixtures/mountinfo-garbage.txt'),
      (err: unknown) =>
        err instanceof ProcParseError && err.lineNumber === 2 && /this is not a mountinfo line/.test(err.message),
    );
    assert.throws(() => parseMountinfo('1 2 x:y / / rw - ext4 /dev/sda rw\n'), /major is "x"/);
  });
});
