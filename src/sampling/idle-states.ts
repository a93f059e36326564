import { closeSync, constants, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The cpuidle driver and governor, as /sys names them; 'none' where the kernel has no cpuidle. */
export interface CpuidleFacts {
  driver: string;
  governor: string;
}

export function readCpuidle(sysCpu: string): CpuidleFacts {
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(join(sysCpu, 'cpuidle', file), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  };
  return {
    driver: read('current_driver') ?? 'none',
    governor: read('current_governor') ?? read('current_governor_ro') ?? 'none',
  };
}

/** A held PM QoS request: the idle states stay shallow until release(). */
export interface IdleStateHold {
  readonly held: boolean;
  /** Why the hold could not be taken (permission, no such device); empty when held or not asked for. */
  readonly reason: string;
  /** What makes the hold work in the setting qpswatch runs in (see idleHoldFix); empty when held or not asked for. */
  readonly fix: string;
  /** Closes the device, which withdraws the request; idempotent. */
  release(): void;
}

export const CPU_DMA_LATENCY = '/dev/cpu_dma_latency';

/** The udev rule systemd/install.sh installs, which gives the device to group qpswatch, mode 0660. */
export const IDLE_HOLD_UDEV_RULE = '/etc/udev/rules.d/90-qpswatch-cpu-dma-latency.rules';

/**
 * Who is asking, which decides the fix: root; the systemd service (systemd gives every process it starts
 * INVOCATION_ID); or a person's own user on the command line.
 */
export type IdleHoldSetting = 'root' | 'service' | 'user';

export function idleHoldSetting(
  env: Readonly<Record<string, string | undefined>>,
  uid = process.getuid?.(),
): IdleHoldSetting {
  if (uid === 0) return 'root';
  return env['INVOCATION_ID'] !== undefined && env['INVOCATION_ID'] !== '' ? 'service' : 'user';
}

/**
 * The one fix that makes the hold work where it failed, by the open's error code and the setting. Under the unit the
 * device cgroup answers EPERM (no DeviceAllow= for the node) and the file mode EACCES (the udev rule not applied).
 */
export function idleHoldFix(code: string, setting: IdleHoldSetting, device = CPU_DMA_LATENCY): string {
  if (code === 'ENOENT') {
    return setting === 'service'
      ? `the service sees no ${device}: a drop-in sets PrivateDevices=yes ` +
          `(check systemctl cat qpswatch), or this kernel has no PM QoS device`
      : `this host has no ${device} (a container that does not pass it through, ` +
          `or a kernel without PM QoS): nothing can be held here`;
  }
  if (code !== 'EACCES' && code !== 'EPERM') return `opening ${device} failed with ${code}`;
  if (setting === 'root') {
    return (
      `even root may not open ${device} here (a container's device policy or ` +
      `a security module): allow the device to this container`
    );
  }
  if (setting === 'service') {
    return code === 'EPERM'
      ? `the unit does not allow the device: it needs DeviceAllow=${device} rw ` +
          `(the unit systemd/install.sh installs has it; check systemctl cat ` +
          `qpswatch for a drop-in that resets DeviceAllow=)`
      : `${device} is not writable by group qpswatch: install the udev rule ` +
          `${IDLE_HOLD_UDEV_RULE} (systemd/install.sh does) and apply it with ` +
          `udevadm trigger --action=change --sysname-match=cpu_dma_latency; ls -l ` +
          `${device} then shows crw-rw---- root qpswatch`;
  }
  return (
    `${device} is root's alone unless the udev rule ${IDLE_HOLD_UDEV_RULE} ` +
    `(systemd/install.sh) gives it to group qpswatch: install the rule and ` +
    `add this user to group qpswatch, or run as root`
  );
}

/**
 * Asks the kernel to keep every CPU out of deep idle states for as long as the hold lasts: the PM QoS CPU latency
 * request, made by writing a latency of 0 µs to /dev/cpu_dma_latency and keeping the file open (closing it ends
 * the request). At low concurrency the client and the server hand each query back and forth, so an idle CPU that
 * halts costs a wake-up per query: on a VM with the haltpoll driver that alone moved QPS by 4x, and with it the
 * drift between runs minutes apart. Where the device is missing or not writable, nothing is held, and the reason and
 * the fix for this setting are kept for the session record and the warning.
 */
export function holdIdleStates(setting: IdleHoldSetting, device = CPU_DMA_LATENCY): IdleStateHold {
  let fd: number;
  try {
    // Never O_CREAT: where the device is missing, a plain file made in its place would look like a hold.
    fd = openSync(device, constants.O_WRONLY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return {
      held: false,
      reason: `${device}: ${code}`,
      fix: idleHoldFix(code, setting, device),
      release: () => undefined,
    };
  }
  if (!fstatSync(fd).isCharacterDevice()) {
    closeSync(fd);
    return {
      held: false,
      reason: `${device}: not a device`,
      fix: `${device} is a plain file, not the kernel's PM QoS device: remove it (the kernel makes the device at boot)`,
      release: () => undefined,
    };
  }
  try {
    // The kernel takes a binary 32-bit value (or hex text); 0 means "no wake-up latency allowed".
    writeSync(fd, Buffer.alloc(4));
  } catch (err) {
    closeSync(fd);
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return {
      held: false,
      reason: `${device}: ${code}`,
      fix: `writing the latency to ${device} failed with ${code}`,
      release: () => undefined,
    };
  }
  let open = true;
  return {
    held: true,
    reason: '',
    fix: '',
    release: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** No hold asked for (the option is off): recorded as such. */
export function noIdleStateHold(): IdleStateHold {
  return { held: false, reason: 'hold_idle_states is off', fix: '', release: () => undefined };
}

/** One line for a person: whether the idle states are held here, and the fix when they are not (qpswatch host). */
export function describeIdleHold(hold: IdleStateHold): string {
  if (hold.held) return `held (PM QoS CPU latency 0 through ${CPU_DMA_LATENCY})`;
  if (hold.fix === '') return `not held: ${hold.reason}`;
  return `not held: ${hold.reason}; ${hold.fix}`;
}
