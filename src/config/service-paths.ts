import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './errors.js';

/**
 * The files of the installed service (systemd/install.sh and the unit's ConfigurationDirectory=, StateDirectory=
 * and CacheDirectory=). QPSWATCH_ROOT names a folder that stands for /, as it does for install.sh, so packaging
 * and tests can use a staged install without touching this machine's /etc.
 */
export interface ServicePaths {
  config: string;
  stateDir: string;
  cacheDir: string;
}

export const SERVICE_CONFIG = '/etc/qpswatch/qpswatch.yaml';
export const SERVICE_STATE_DIR = '/var/lib/qpswatch';
export const SERVICE_CACHE_DIR = '/var/cache/qpswatch';

export function servicePaths(env: Readonly<Record<string, string | undefined>>): ServicePaths {
  const root = env['QPSWATCH_ROOT'] !== undefined && env['QPSWATCH_ROOT'] !== '' ? resolve(env['QPSWATCH_ROOT']) : '/';
  return {
    config: join(root, SERVICE_CONFIG),
    stateDir: join(root, SERVICE_STATE_DIR),
    cacheDir: join(root, SERVICE_CACHE_DIR),
  };
}

/** --config, else QPSWATCH_CONFIG, else the service's config when it is installed; undefined: run on the defaults. */
export function findConfigFile(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (flag === '') throw new ConfigError(['--config is empty: name a config file, or leave --config out']);
  const named = flag ?? env['QPSWATCH_CONFIG'];
  if (named === '')
    throw new ConfigError([
      'QPSWATCH_CONFIG is set but empty: set it to a config file, or unset it (unset QPSWATCH_CONFIG) to run on the ' +
        `defaults or ${SERVICE_CONFIG}`,
    ]);
  if (named !== undefined) return named;
  const { config } = servicePaths(env);
  return existsSync(config) ? config : undefined;
}

/**
 * With the service's own config, state and cache default to the service's folders, so the CLI and the daemon share one
 * store.
 */
export function isServiceConfig(
  file: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return file !== undefined && resolve(cwd, file) === servicePaths(env).config;
}
