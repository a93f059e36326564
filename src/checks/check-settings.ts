import type { Config } from '../config/index.js';
import type { ProfilingMode } from '../model/index.js';
import type { MailSettings } from '../notify/index.js';
import { compareSettings, type CompareSettings } from '../session/index.js';
import { alertSettings, type AlertSettings } from './alert-messages.js';
import { mailSettings } from './deliver.js';

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
