import type { Config } from '../config/index.js';
import { checkTrustedFolder, ensureTrustedFolder, type TrustSubject } from '../trust/index.js';

const STATE: TrustSubject = { what: 'state_dir', elsewhere: 'choose another state_dir' };
const CACHE: TrustSubject = { what: 'cache_dir', elsewhere: 'choose another cache_dir' };

/**
 * Every command that reads a config checks its state folder first, before the store is opened or a target resolved:
 * what is in it becomes code root runs (builds/<key>/install) and the store that says what to run. A folder not made
 * yet is fine here; commands that write make it (makeStateFolders), and check the cache folder too.
 */
export function checkStateFolder(config: Config): void {
  checkTrustedFolder(config.state_dir, STATE);
}

/** The state and the cache folder (the mirrors and worktrees root compiles, the tarballs it runs): config check. */
export function checkStateFolders(config: Config): void {
  checkTrustedFolder(config.state_dir, STATE);
  checkTrustedFolder(config.cache_dir, CACHE);
}

/** The state folder checked, and made when missing, one part at a time and never through a link. */
export function makeStateFolder(config: Config): void {
  ensureTrustedFolder(config.state_dir, STATE);
}

/** The commands that build, unpack or run what cache_dir holds (git mirrors, worktrees, tarballs, build locks). */
const CACHE_COMMANDS = new Set([
  'daemon',
  'once',
  'build',
  'prune',
  'compare',
  'profile',
  'calibrate',
  'check',
  'bisect',
]);

/**
 * What every command checks before it does anything else (main): the state folder, and for the commands that use it
 * the cache folder, made when missing so that no other user can make it first under a shared folder such as /tmp.
 */
export function checkCommandFolders(command: string, config: Config): void {
  checkStateFolder(config);
  if (CACHE_COMMANDS.has(command)) ensureTrustedFolder(config.cache_dir, CACHE);
}
