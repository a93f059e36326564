import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { projectRoot } from '../paths.js';

/** The project's own Lua scripts; read from the source tree, never compiled. */
export const PROJECT_SCRIPT_DIR = join(projectRoot, 'src', 'suite', 'lua');

/** Where the sysbench 1.0 packages and a source install put the stock scripts (oltp_*.lua). */
export const STOCK_SCRIPT_DIRS: readonly string[] = ['/usr/share/sysbench', '/usr/local/share/sysbench'];

/** The folders a script name is looked up in, first match wins: the project's scripts, then stock ones. */
export function defaultScriptDirs(): string[] {
  return [PROJECT_SCRIPT_DIR, ...STOCK_SCRIPT_DIRS];
}

export type ScriptLookup = { found: true; path: string } | { found: false; tried: string[] };

/**
 * A name ("points", "oltp_point_select", ".lua" optional) is looked up in `dirs`; anything with a slash is
 * a path relative to the suite file's folder. sysbench is always given the absolute path, so it never
 * searches on its own (it would look in the working directory first).
 */
export function lookUpScript(script: string, suiteDir: string, dirs: readonly string[]): ScriptLookup {
  const candidates = script.includes('/')
    ? [isAbsolute(script) ? script : resolve(suiteDir, script)]
    : dirs.map((dir) => join(dir, script.endsWith('.lua') ? script : `${script}.lua`));
  const path = candidates.find(isFile);
  return path !== undefined ? { found: true, path } : { found: false, tried: candidates };
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
