import type { Config } from '../config/index.js';
import type { QueueRecord } from '../store/index.js';

/**
 * How often and how far apart the daemon tries a failed build or session again (retry_attempts, retry_backoff_minutes).
 */
export interface RetrySettings {
  /** the most attempts of one step; 1 means none is repeated */
  attempts: number;
  /** the wait after the first failed attempt, doubling after each one */
  backoffMinutes: number;
}

export function retrySettings(config: Config): RetrySettings {
  return { attempts: config.retry_attempts, backoffMinutes: config.retry_backoff_minutes };
}

/**
 * After the `failures`-th failed attempt of a step (1 for the first): when the next may start, or undefined when
 * that was the last one allowed. The waits are backoff, 2 x backoff, 4 x backoff ... (the exponent is bounded so an
 * absurd count stays finite).
 */
export function nextAttemptAt(failures: number, settings: RetrySettings, now: Date): string | undefined {
  if (failures >= settings.attempts) return undefined;
  const minutes = settings.backoffMinutes * 2 ** Math.min(Math.max(failures, 1) - 1, 20);
  return new Date(now.getTime() + minutes * 60_000).toISOString();
}

/** A row waiting for a retry is taken only once its time has come. */
export function isDue(row: Pick<QueueRecord, 'nextAttemptAt'>, now: Date): boolean {
  return row.nextAttemptAt === null || Date.parse(row.nextAttemptAt) <= now.getTime();
}

/** The last lines of a failure, as the email and status show them: the error's own lines when it has several. */
export function errorLinesOf(err: unknown, max = 40): string[] {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-max);
}
