import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
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
  return { driver: read('current_driver') ?? 'none', governor: read('current_governor') ?? read('current_governor_ro') ?? 'none' };
}

/** A held PM QoS request: the idle states stay shallow until release(). */
export interface IdleStateHold {
  readonly held: boolean;
  /** Why the hold could not be taken (permission, no such device); empty when held or not asked for. */
  readonly reason: string;
  /** Closes the device, which withdraws the request; idempotent. */
  release(): void;
}

export const CPU_DMA_LATENCY = '/dev/cpu_dma_latency';

/**
 * Asks the kernel to keep every CPU out of deep idle states for as long as the hold lasts: the PM QoS CPU latency
 * request, made by writing a latency of 0 µs to /dev/cpu_dma_latency and keeping the file open (closing it ends
 * the request). At low concurrency the client and the server hand each query back and forth, so an idle CPU that
 * halts costs a wake-up per query: on a VM with the haltpoll driver that alone moved QPS by 4x, and with it the
 * drift between runs minutes apart. Where the device is missing or not writable (not root), nothing is held and the
 * reason is kept for the session record.
 */
export function holdIdleStates(device = CPU_DMA_LATENCY): IdleStateHold {
  let fd: number;
  try {
    fd = openSync(device, 'w');
    // The kernel takes a binary 32-bit value (or hex text); 0 means "no wake-up latency allowed".
    writeSync(fd, Buffer.alloc(4));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return { held: false, reason: `${device}: ${code}`, release: () => undefined };
  }
  let open = true;
  return {
    held: true,
    reason: '',
    release: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** No hold asked for (the option is off): recorded as such. */
export function noIdleStateHold(): IdleStateHold {
  return { held: false, reason: 'hold_idle_states is off', release: () => undefined };
}
