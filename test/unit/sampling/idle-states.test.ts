import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { idleHoldWarning } from '../../../src/session/compare.js';
import { joined } from '../../helpers/pattern.js';
import {
  describeIdleHold,
  holdIdleStates,
  idleHoldFix,
  idleHoldSetting,
  noIdleStateHold,
} from '../../../src/sampling/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-idle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test(
  'the setting: root by uid, the service by the INVOCATION_ID systemd ' + 'gives its processes, a person otherwise',
  () => {
    assert.equal(idleHoldSetting({ INVOCATION_ID: 'abc' }, 0), 'root');
    assert.equal(idleHoldSetting({ INVOCATION_ID: 'abc' }, 998), 'service');
    assert.equal(idleHoldSetting({}, 998), 'user');
    assert.equal(idleHoldSetting({ INVOCATION_ID: '' }, 1000), 'user');
  },
);

test('each setting gets its own fix, never "run as root" where that is no fix', () => {
  // Under the unit: the device cgroup answers EPERM, the file mode EACCES.
  const deviceCgroup = idleHoldFix('EPERM', 'service');
  assert.match(deviceCgroup, /DeviceAllow=\/dev\/cpu_dma_latency rw/);
  const fileMode = idleHoldFix('EACCES', 'service');
  assert.match(fileMode, /udev rule \/etc\/udev\/rules\.d\/90-qpswatch-cpu-dma-latency\.rules/);
  assert.match(fileMode, /udevadm trigger --action=change --sysname-match=cpu_dma_latency/);
  assert.match(idleHoldFix('ENOENT', 'service'), /PrivateDevices=yes/);
  for (const fix of [deviceCgroup, fileMode]) assert.doesNotMatch(fix, /run as root/);

  assert.match(idleHoldFix('EACCES', 'user'), /add this user to group qpswatch, or run as root/);
  assert.match(idleHoldFix('EACCES', 'root'), /even root may not open .* allow the device to this container/);
  assert.doesNotMatch(idleHoldFix('EACCES', 'root'), /run as root/);
  assert.match(idleHoldFix('ENOENT', 'root'), /this host has no \/dev\/cpu_dma_latency/);
  assert.equal(idleHoldFix('EIO', 'user'), 'opening /dev/cpu_dma_latency failed with EIO');
});

test('a device that is missing: not held, with the reason and the fix of the setting asked for', () => {
  const hold = holdIdleStates('service', join(dir, 'missing'));
  assert.equal(hold.held, false);
  assert.equal(hold.reason, `${join(dir, 'missing')}: ENOENT`);
  assert.match(hold.fix, /the service sees no .*missing/);
  hold.release();
  assert.match(describeIdleHold(hold), /^not held: .*missing: ENOENT; the service sees no/);
  assert.match(
    idleHoldWarning(hold),
    joined(
      /^idle states not held \(.*: ENOENT\): QPS at low concurrency /,
      /will drift .*; the service sees no .*; or set /,
      /hold_idle_states: false to silence this$/,
    ),
  );
});

test('a device that can be opened is held until released, and release is idempotent', () => {
  // /dev/null stands in for the PM QoS device: a character device anyone may write.
  const hold = holdIdleStates('user', '/dev/null');
  assert.equal(hold.held, true);
  assert.equal(hold.fix, '');
  hold.release();
  hold.release();
  assert.match(describeIdleHold(hold), /^held \(PM QoS CPU latency 0 through \/dev\/cpu_dma_latency\)$/);
});

test('a plain file where the device should be is no hold, and none is ever created', () => {
  const file = join(dir, 'latency');
  writeFileSync(file, '');
  const hold = holdIdleStates('root', file);
  assert.equal(hold.held, false);
  assert.equal(hold.reason, `${file}: not a device`);
  assert.match(hold.fix, /is a plain file, not the kernel's PM QoS device: remove it/);
  holdIdleStates('root', join(dir, 'missing'));
  assert.equal(existsSync(join(dir, 'missing')), false);
});

test('the option off: not held, no fix to give', () => {
  const hold = noIdleStateHold();
  assert.equal(describeIdleHold(hold), 'not held: hold_idle_states is off');
});
