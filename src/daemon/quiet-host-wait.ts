import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import {
  judgeQuietHost,
  observeHost,
  type QuietHostLimits,
  type QuietHostObservation,
  type QuietHostVerdict,
} from '../sampling/index.js';

export interface QuietHostSettings {
  limits: QuietHostLimits;
  windowSeconds: number;
  maxWaitSeconds: number;
}

export interface QuietHostWait {
  /** The last look at the host: the one the session started after. */
  verdict: QuietHostVerdict;
  waitedSeconds: number;
}

export interface QuietHostWaitDeps {
  log: Logger;
  signal: AbortSignal;
  /** Called before each further look while the host is busy: the reasons and the seconds waited so far. */
  onBusy?: (reasons: readonly string[], waitedSeconds: number) => void | Promise<void>;
  observe?: (windowSeconds: number, opts: { signal: AbortSignal }) => Promise<QuietHostObservation>;
  now?: () => number;
}

export function quietHostSettings(config: Config): QuietHostSettings {
  return {
    limits: {
      maxBusyPercent: config.quiet_max_busy_percent,
      minAvailableBytes: config.quiet_min_available_bytes,
      maxSwapPagesPerSecond: config.quiet_max_swap_pages_per_second,
      governors: config.quiet_governors,
    },
    windowSeconds: config.quiet_window_seconds,
    maxWaitSeconds: config.quiet_max_wait_seconds,
  };
}

/**
 * Looks at the host until it is quiet, one window at a time, for at most maxWaitSeconds. A host that stays busy
 * does not stop the release: the session then runs anyway with a warning, because a daemon that waits forever
 * reports nothing at all; what the last look saw is stored with the session, so a person can judge it (and mark
 * the check invalid). The wait stops at once when the signal aborts.
 */
export async function waitForQuietHost(settings: QuietHostSettings, deps: QuietHostWaitDeps): Promise<QuietHostWait> {
  const observe = deps.observe ?? observeHost;
  const now = deps.now ?? Date.now;
  const started = now();
  let warned = false;
  for (;;) {
    const verdict = judgeQuietHost(await observe(settings.windowSeconds, { signal: deps.signal }), settings.limits);
    const waitedSeconds = (now() - started) / 1000;
    if (verdict.quiet) {
      if (warned) deps.log.info({ waitedSeconds }, 'the host is quiet now');
      return { verdict, waitedSeconds };
    }
    if (waitedSeconds >= settings.maxWaitSeconds) {
      deps.log.warn(
        { reasons: verdict.reasons, waitedSeconds },
        `the host is still busy after ${Math.round(waitedSeconds)} s ` +
          `(quiet_max_wait_seconds): the session runs anyway; its results may be ` +
          `noisy`,
      );
      return { verdict, waitedSeconds };
    }
    if (!warned) deps.log.warn({ reasons: verdict.reasons }, `waiting for a quiet host: ${verdict.reasons.join('; ')}`);
    else deps.log.info({ reasons: verdict.reasons, waitedSeconds }, 'the host is still busy');
    warned = true;
    await deps.onBusy?.(verdict.reasons, waitedSeconds);
  }
}
