/** What one server of a session is expected to hold in memory besides its buffer pool (threads, caches, redo buffer). */
const SERVER_OVERHEAD_BYTES = 384 * 1024 ** 2;
/** The server's own default when the my.cnf sets no buffer pool. */
const DEFAULT_BUFFER_POOL_BYTES = 128 * 1024 ** 2;
const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/**
 * The memory a server started with this my.cnf text will take once warm: its innodb_buffer_pool_size (as the last
 * line that sets it says, with the K/M/G/T suffixes mysqld accepts) plus a fixed overhead. An estimate on purpose:
 * it is compared with MemAvailable before two servers are started side by side.
 */
export function expectedServerBytes(myCnf: string): number {
  let pool = DEFAULT_BUFFER_POOL_BYTES;
  for (const line of myCnf.split('\n')) {
    const m = /^\s*innodb[-_]buffer[-_]pool[-_]size\s*=\s*(\d+(?:\.\d+)?)\s*([KMGTkmgt]?)\s*$/.exec(line);
    if (m !== null) pool = Number(m[1]) * UNITS[m[2]!.toUpperCase()]!;
  }
  return pool + SERVER_OVERHEAD_BYTES;
}
