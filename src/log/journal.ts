/**
 * journald reads a `<N>` syslog priority at the start of each line of a service's stdout/stderr (SyslogLevelPrefix=,
 * on by default) and files the line at that priority, without the prefix. So `journalctl -p warning` finds
 * qpswatch's warnings and errors, and `journalctl -o cat` still shows the bare JSON record.
 */

/**
 * pino's numeric levels to syslog priorities (sd-daemon.h): fatal crit, error err, warn warning, info, debug and trace
 * debug.
 */
export function syslogPriority(pinoLevel: number): number {
  if (pinoLevel >= 60) return 2;
  if (pinoLevel >= 50) return 3;
  if (pinoLevel >= 40) return 4;
  if (pinoLevel >= 30) return 6;
  return 7;
}

const LEVEL_FIELD = /^\{"level":(\d+)/;

/** One JSON record as pino writes it (level first), with its priority in front; anything else is left as it is. */
export function withSyslogPrefix(line: string): string {
  const match = LEVEL_FIELD.exec(line);
  return match === null ? line : `<${syslogPriority(Number(match[1]))}>${line}`;
}

/**
 * systemd sets JOURNAL_STREAM to "device:inode" of the stream it connects to stdout/stderr. A process whose stderr is
 * that stream writes to journald; one that inherited the variable but had stderr redirected (a shell in a service,
 * `2>file`) does not, and gets no prefixes.
 */
export function isJournalStream(
  journalStream: string | undefined,
  stderr: { dev: number; ino: number } | undefined,
): boolean {
  if (journalStream === undefined || stderr === undefined) return false;
  const match = /^(\d+):(\d+)$/.exec(journalStream.trim());
  return match !== null && Number(match[1]) === stderr.dev && Number(match[2]) === stderr.ino;
}

/** Text written to stderr outside the logger (the CLI's last error line), each line at one priority. */
export function withPriority(text: string, priority: number): string {
  return text.replace(/^(?=.)/gm, `<${priority}>`);
}
