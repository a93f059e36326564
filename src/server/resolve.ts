import { rangeIncludes, type Flavor, type Version } from '../version/index.js';
import { normalizeOptionName } from './option-names.js';
import type { ProfileOverride, ServerProfile, SettingValue } from './profile.js';

/** What a profile is rendered for. */
export interface ServerTarget {
  readonly flavor: Flavor;
  readonly version: Version;
}

export function overrideApplies(override: ProfileOverride, target: ServerTarget): boolean {
  if (override.flavors !== undefined && !override.flavors.includes(target.flavor)) return false;
  return rangeIncludes(override.versions, target.version);
}

/**
 * The profile's settings for one target: overrides that match are applied in file order; a set replaces the
 * option in place (whatever its spelling) or appends it, a remove drops it.
 */
export function resolveSettings(profile: ServerProfile, target: ServerTarget): Array<[string, SettingValue]> {
  const options = new Map<string, [string, SettingValue]>();
  for (const [name, value] of Object.entries(profile.settings)) options.set(normalizeOptionName(name), [name, value]);
  for (const override of profile.overrides) {
    if (!overrideApplies(override, target)) continue;
    for (const [name, value] of Object.entries(override.set)) options.set(normalizeOptionName(name), [name, value]);
    for (const name of override.remove) options.delete(normalizeOptionName(name));
  }
  return [...options.values()];
}
