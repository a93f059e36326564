import type { Config } from '../config/index.js';
import type { ProfilingMode } from '../model/index.js';
import type { MailSettings } from '../notify/index.js';
import { compareSettings, type CompareSettings } from '../session/index.js';
import { alertSettings, type AlertSettings } from './alert-messages.js';
import { buildSettings, type BuildSettings } from './build-release.js';
import { mailSettings } from './deliver.js';
import { quietHostSettings, type QuietHostSettings } from './quiet-host-wait.js';
import { retrySettings, type RetrySettings } from './retry-policy.js';

/** A check is a session plus the emails about it. */
export interface CheckSettings extends CompareSettings {
  alerts: AlertSettings;
  mail: MailSettings;
  /** reanchor_every: every this many checked releases of a series, one is checked against the base; 0 is off. */
  reanchorEvery: number;
  /** How a check profiles the worst regression it opens (off: never), and how long it samples each server. */
  profiling: ProfilingMode;
  profileSeconds: number;
  /** bisect, bisect_max_builds, bisect_max_hours: whether a new regression is bisected at once, and its budget. */
  bisect: BisectSettings;
}

export interface BisectSettings {
  enabled: boolean;
  maxBuilds: number;
  maxHours: number;
}

/** A daemon cycle also builds releases, prunes installs and waits for a quiet host. */
export interface CycleSettings extends CheckSettings, BuildSettings {
  keepBuilds: number;
  quietHost: QuietHostSettings;
  /** How often a failed build or session is tried again, and how far apart. */
  retry: RetrySettings;
}

export function checkSettings(config: Config, env: Readonly<Record<string, string | undefined>> = {}): CheckSettings {
  return {
    ...compareSettings(config, env),
    alerts: alertSettings(config),
    mail: mailSettings(config),
    reanchorEvery: config.reanchor_every,
    profiling: config.profiling,
    profileSeconds: config.profile_seconds,
    bisect: { enabled: config.bisect, maxBuilds: config.bisect_max_builds, maxHours: config.bisect_max_hours },
  };
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
