import { normalizeOptionName } from './option-names.js';
import type { ServerProfile } from './profile.js';
import { resolveSettings, type ServerTarget } from './resolve.js';

/**
 * What one server of a session is expected to hold in memory besides its buffer pool (threads, caches, redo buffer).
 */
export const SERVER_OVERHEAD_BYTES = 384 * 1024 ** 2;
/** The server's own default when the my.cnf sets no buffer pool. */
const DEFAULT_BUFFER_POOL_BYTES = 128 * 1024 ** 2;
const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };
const SIZE_RE = /^(\d+(?:\.\d+)?)\s*([KMGTkmgt]?)$/;

/** A my.cnf size (1048576, 512M, 1G, with the K/M/G/T suffixes mysqld accepts) in bytes; undefined when it is none. */
export function sizeBytes(text: string): number | undefined {
  const m = SIZE_RE.exec(text.trim());
  return m === null ? undefined : Number(m[1]) * UNITS[m[2]!.toUpperCase()]!;
}

/**
 * The innodb_buffer_pool_size a server started with this my.cnf text gets: the last line that sets it, else the
 * default.
 */
export function bufferPoolBytes(myCnf: string): number {
  let pool = DEFAULT_BUFFER_POOL_BYTES;
  for (const line of myCnf.split('\n')) {
    const m = /^\s*innodb[-_]buffer[-_]pool[-_]size\s*=\s*(.+?)\s*$/.exec(line);
    const bytes = m === null ? undefined : sizeBytes(m[1]!);
    if (bytes !== undefined) pool = bytes;
  }
  return pool;
}

/** The innodb_buffer_pool_size the profile gives this target (after its overrides), else the server's default. */
export function profilePoolBytes(profile: ServerProfile, target: ServerTarget): number {
  const setting = resolveSettings(profile, target).find(
    ([name]) => normalizeOptionName(name) === normalizeOptionName('innodb_buffer_pool_size'),
  );
  return (setting === undefined ? undefined : sizeBytes(String(setting[1]))) ?? DEFAULT_BUFFER_POOL_BYTES;
}

/**
 * The memory a server started with this my.cnf text will take once warm: its buffer pool plus a fixed overhead. An
 * estimate on purpose: it is compared with MemAvailable before two servers are started side by side.
 */
export function expectedServerBytes(myCnf: string): number {
  return bufferPoolBytes(myCnf) + SERVER_OVERHEAD_BYTES;
}
