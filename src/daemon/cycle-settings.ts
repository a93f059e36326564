import type { Config } from '../config/index.js';
import { checkSettings, type CheckSettings } from '../checks/index.js';
import { buildSettings, type BuildSettings } from '../releases/index.js';
import { quietHostSettings, type QuietHostSettings } from './quiet-host-wait.js';
import { retrySettings, type RetrySettings } from './retry-policy.js';

/** A daemon cycle checks releases, and also builds them, prunes installs and waits for a quiet host. */
export interface CycleSettings extends CheckSettings, BuildSettings {
  keepBuilds: number;
  quietHost: QuietHostSettings;
  /** How often a failed build or session is tried again, and how far apart. */
  retry: RetrySettings;
}

export function cycleSettings(config: Config, env: Readonly<Record<string, string | undefined>> = {}): CycleSettings {
  return {
    ...checkSettings(config, env),
    ...buildSettings(config),
    keepBuilds: config.keep_builds,
    quietHost: quietHostSettings(config),
    retry: retrySettings(config),
  };
}
