import { join } from 'node:path';
import { listNamedFiles, parseYamlFile, loadNamedProfile, type YamlProblem } from '../config/index.js';
import { projectRoot } from '../paths.js';
import { parseVersionRange, VersionRangeError, type Flavor, type VersionRange } from '../version/index.js';
import { ServerProfileError } from './errors.js';
import { isOwnedOption, normalizeOptionName } from './option-names.js';
import { fixFor, ServerProfileFileSchema, type ServerProfileFile } from './profile-schema.js';

export type SettingValue = string | number | boolean;
export type Settings = Readonly<Record<string, SettingValue>>;

/** Changes for the versions (and flavors) an override names, applied in file order. */
export interface ProfileOverride {
  readonly versions: VersionRange;
  /** Undefined: every flavor. Version numbers of MariaDB and MySQL overlap (5.5), so MySQL-only overrides say so. */
  readonly flavors?: readonly Flavor[];
  readonly set: Settings;
  readonly remove: readonly string[];
}

export interface ServerProfile {
  readonly name: string;
  /** The file it came from: error messages name it. */
  readonly source: string;
  readonly description: string;
  readonly settings: Settings;
  readonly overrides: readonly ProfileOverride[];
}

/** The profiles shipped with qpswatch. */
export function shippedProfileDir(): string {
  return join(projectRoot, 'config', 'server-profiles');
}

export function listServerProfiles(dir: string = shippedProfileDir()): Promise<string[]> {
  return listNamedFiles(dir);
}

export function loadServerProfile(name: string, dir: string = shippedProfileDir()): Promise<ServerProfile> {
  return loadNamedProfile(dir, name, 'server profile', ServerProfileError, parseServerProfile);
}

/** Parses and checks a profile's YAML text; `source` names it in errors. */
export function parseServerProfile(text: string, name: string, source: string): ServerProfile {
  const file = parseYamlFile(
    text,
    ServerProfileFileSchema,
    (p) => new ServerProfileError(source, p.field, p.value, p.problem, fixOf(p)),
  );
  return checkProfile(file, name, source);
}

function fixOf(problem: YamlProblem): string {
  if (problem.kind === 'syntax') return 'fix the YAML syntax';
  if (problem.kind === 'bad-key') return 'option names are letters, digits, - and _, starting with a letter';
  return fixFor(problem.path);
}

function checkProfile(file: ServerProfileFile, name: string, source: string): ServerProfile {
  checkOptions(source, 'settings', Object.entries(file.settings));
  // Names that some earlier step could have set: a remove of anything else is a typo, not a no-op.
  const known = new Set(Object.keys(file.settings).map(normalizeOptionName));
  const overrides = file.overrides.map((o, i): ProfileOverride => {
    const at = `overrides[${i}]`;
    checkOptions(source, `${at}.set`, Object.entries(o.set));
    checkOptions(
      source,
      `${at}.remove`,
      o.remove.map((n) => [n, n]),
    );
    o.remove.forEach((option, j) => {
      if (!known.has(normalizeOptionName(option))) {
        throw new ServerProfileError(
          source,
          `${at}.remove[${j}]`,
          option,
          'is not set by settings or an earlier override',
          'remove only options the profile sets, or fix the name',
        );
      }
    });
    Object.keys(o.set).forEach((option) => known.add(normalizeOptionName(option)));
    const override = { versions: parseRange(source, `${at}.versions`, o.versions), set: o.set, remove: o.remove };
    return o.flavors === undefined ? override : { ...override, flavors: o.flavors };
  });
  return { name, source, description: file.description, settings: file.settings, overrides };
}

function parseRange(source: string, field: string, text: string): VersionRange {
  try {
    return parseVersionRange(text);
  } catch (err) {
    if (!(err instanceof VersionRangeError)) throw err;
    throw new ServerProfileError(
      source,
      field,
      text,
      `is not a version range: ${err.reason} (at "${err.part}")`,
      fixFor(['versions']),
    );
  }
}

/** Owned options and the same option spelled twice (innodb-log-file-size and innodb_log_file_size) are errors. */
export function checkOptions(source: string, field: string, options: ReadonlyArray<readonly [string, unknown]>): void {
  const seen = new Map<string, string>();
  for (const [option, value] of options) {
    if (isOwnedOption(option)) {
      throw new ServerProfileError(
        source,
        `${field}.${option}`,
        value,
        'is owned by qpswatch (paths, networking and access)',
        `remove "${option}" from the profile`,
      );
    }
    const key = normalizeOptionName(option);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new ServerProfileError(
        source,
        `${field}.${option}`,
        value,
        `is the same option as "${earlier}"`,
        'keep one spelling',
      );
    }
    seen.set(key, option);
  }
}
