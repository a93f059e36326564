import { ServerProfileError } from './errors.js';
import { checkOptions, type ServerProfile, type SettingValue } from './profile.js';
import { checkSocketPath, type ServerNetwork, type ServerPaths } from './paths.js';
import { resolveSettings, type ServerTarget } from './resolve.js';

/**
 * The text of a my.cnf for one target: the [mysqld] options qpswatch owns (paths, networking), then the
 * profile's settings after the overrides for the target's flavor and version.
 */
export function renderMyCnf(
  profile: ServerProfile,
  target: ServerTarget,
  paths: ServerPaths,
  network?: ServerNetwork,
): string {
  checkSocketPath(paths.socket);
  const settings = resolveSettings(profile, target);
  // Profiles built in code skip the loader's checks; the owned options must never come from a profile.
  checkOptions(profile.source, 'settings', settings);
  const lines = [
    `# Written by qpswatch for ${target.flavor} ${target.version.text} from ` +
      `server profile "${profile.name}" (${profile.source}).`,
    '# Edit the profile, not this file.',
    '[mysqld]',
    ...ownedLines(target, paths, network),
    '',
    `# server profile "${profile.name}"`,
    ...settings.map(([name, value]) => optionLine(profile, name, value)),
  ];
  return lines.join('\n') + '\n';
}

function ownedLines(target: ServerTarget, paths: ServerPaths, network: ServerNetwork | undefined): string[] {
  const lines = [
    `datadir=${quote(paths.datadir)}`,
    `socket=${quote(paths.socket)}`,
    `pid-file=${quote(paths.pidFile)}`,
    `log-error=${quote(paths.errorLog)}`,
    `tmpdir=${quote(paths.tmpdir)}`,
    // LOAD_FILE, LOAD DATA and INTO OUTFILE only inside this folder of the session's: never the host's files.
    `secure_file_priv=${quote(paths.secureFileDir)}`,
  ];
  if (network === undefined) lines.push('skip-networking');
  else lines.push(`port=${network.port}`, `bind-address=${quote(network.bindAddress)}`);
  // MySQL 8's X plugin listens on 33060 and /tmp/mysqlx.sock whatever the config says: two servers would collide.
  if (target.flavor !== 'mariadb') lines.push('loose-mysqlx=OFF');
  return lines;
}

/** true writes the bare name, false its skip- form (loose-skip-name for loose options). */
export function optionLine(profile: ServerProfile, name: string, value: SettingValue): string {
  if (value === true) return name;
  if (value === false) return /^loose[-_]/.test(name) ? `loose-skip-${name.slice(6)}` : `skip-${name}`;
  if (typeof value === 'number') return `${name}=${renderNumber(profile, name, value)}`;
  if (/[\r\n\0]/.test(value)) {
    throw new ServerProfileError(
      profile.source,
      `settings.${name}`,
      value,
      'contains a line break',
      'write the value on one line',
    );
  }
  return `${name}=${quote(value)}`;
}

function renderNumber(profile: ServerProfile, name: string, value: number): string {
  const text = String(value);
  // 1e21 or NaN would reach the server as text it cannot read.
  if (!/^-?\d+(\.\d+)?$/.test(text)) {
    throw new ServerProfileError(
      profile.source,
      `settings.${name}`,
      text,
      'is not a plain decimal number',
      'write the number as digits, or as a string such as "1G"',
    );
  }
  return text;
}

/**
 * my.cnf values: backslash escapes are always read; a # starts a comment unless the value is quoted;
 * surrounding blanks are trimmed unless quoted.
 */
export function quote(value: string): string {
  const escaped = value.replace(/\\/g, '\\\\');
  const needsQuotes = value === '' || /[#"']/.test(value) || /^\s|\s$/.test(value);
  return needsQuotes ? `"${escaped.replace(/"/g, '\\"')}"` : escaped;
}
