/**
 * How the server runs under callgrind for the lane. Only the query dispatcher's instructions are counted
 * (--toggle-collect): no start-up, no background thread, and no wait for the client's next packet, whose path
 * (recv, then poll when nothing has come yet) depends on how fast the client is: counted, it spread a point
 * select's figure by 0.5% between runs; left out, three runs counted the same to 4 instructions in 84 million.
 * Every new connection zeroes the counts (--zero-before), so what callgrind writes at the server's exit is the last
 * connection's: the measured run's, when the server is then stopped by signal and not by a statement.
 *
 * The functions are exported names in MariaDB and MySQL builds (Debian's stripped mariadbd keeps them); a binary
 * that does not name them counts nothing, which the lane reports as such.
 */

/** The query dispatcher, whose instructions the lane counts (`dispatch_command(THD*, ...)` in every flavor). */
export const COLLECT_FUNCTION = 'dispatch_command';
/** Entered once per connection, also for one the thread cache serves (do_handle_one_connection is not). */
export const ZERO_FUNCTION = 'thd_prepare_connection';

/** The valgrind command line the server's own argv follows: mysqld runs as valgrind's client. */
export function callgrindArgv(valgrind: string, outFile: string): string[] {
  return [
    valgrind,
    '--tool=callgrind',
    // A pattern: C++ names are demangled with their parameters, dispatch_command(THD*, ...).
    `--toggle-collect=${COLLECT_FUNCTION}(*`,
    `--zero-before=${ZERO_FUNCTION}(*`,
    `--callgrind-out-file=${outFile}`,
    // Per function is all the lane keeps: no per-line positions (a smaller file, written faster at exit).
    '--dump-line=no',
    // No gdbserver: its FIFOs in /tmp would let another local user's process reach the server.
    '--vgdb=no',
    // A server started by a launcher that execs the real mysqld (the demo upstream's builds, a vendor's wrapper) is
    // counted after the exec; the file then holds the mysqld's counts alone (the same process id, written at exit).
    '--trace-children=yes',
  ];
}

/** valgrind --version prints "valgrind-3.19.0"; the version as numbers, undefined when that is not what it says. */
export function parseValgrindVersion(text: string): number[] | undefined {
  const m = /valgrind-(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  if (m === null) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/**
 * The oldest valgrind the lane runs under. The lane was measured with 3.19 (Debian 12); releases before 3.16 (2020)
 * stop on instructions and system calls that current glibc and server builds use.
 */
export const MIN_VALGRIND: readonly number[] = [3, 16, 0];

export function atLeast(version: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const a = version[i] ?? 0;
    const b = min[i]!;
    if (a !== b) return a > b;
  }
  return true;
}
