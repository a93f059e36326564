import { pino, type Logger, type LoggerOptions } from 'pino';
import { createRequire } from 'node:module';
import { withSyslogPrefix } from './journal.js';
import { redactUrlCredentials } from './redact.js';
import type { TerminalOutput } from './terminal.js';

export type { Logger };
export type LogFormat = 'auto' | 'json' | 'pretty';
/** What a logger writes: JSON lines; pino-pretty's lines (--log-format pretty); or the terminal's short lines. */
export type LogOutputFormat = 'json' | 'pretty' | 'terminal';
export { printableLine, TerminalOutput, type TerminalOptions } from './terminal.js';
export { isJournalStream, syslogPriority, withPriority, withSyslogPrefix } from './journal.js';
export {
  addUrlForRedaction,
  hasQuerySecret,
  redactQuerySecrets,
  redactUrl,
  redactUrlCredentials,
  splitUrl,
  urlWithoutCredentials,
  type UrlParts,
} from './redact.js';

export interface JournalOutput {
  /** stderr is journald's stream: each JSON line starts with its syslog priority (`<4>` for a warning). */
  journal?: boolean;
  /** Format terminal: where the lines go (the status line's owner). */
  terminal?: TerminalOutput;
}

/** Keys whose values never reach a log line, wherever they sit in the logged object. */
const REDACTED_PATHS = [
  'password',
  '*.password',
  '*.*.password',
  'secret',
  '*.secret',
  'smtpPassword',
  '*.smtpPassword',
];

/**
 * JSON under systemd (journald sets JOURNAL_STREAM) or when output is not a terminal; on a terminal, one short line
 * per event under a status line (terminal.ts), or pino-pretty's whole lines when asked for (pretty).
 * Logs go to stderr so that reports on stdout stay clean for pipes.
 */
export function resolveLogFormat(format: LogFormat, env: NodeJS.ProcessEnv, stderrIsTTY: boolean): LogOutputFormat {
  if (format !== 'auto') return format;
  if (env['JOURNAL_STREAM'] !== undefined || env['INVOCATION_ID'] !== undefined) return 'json';
  return stderrIsTTY ? 'terminal' : 'json';
}

/**
 * What every logger of qpswatch redacts, in one place: secret keys by path, and the password or token of any URL
 * in the whole written line (a remote in a field, a git argv, an error message, a child logger's bindings).
 */
export function loggerOptions(level: string, format: LogOutputFormat, output: JournalOutput = {}): LoggerOptions {
  // Only JSON lines get the prefix: pino-pretty parses what it is given, and its lines are for terminals.
  const journal = format === 'json' && output.journal === true;
  const streamWrite = journal ? (line: string) => withSyslogPrefix(redactUrlCredentials(line)) : redactUrlCredentials;
  return {
    level,
    base: { pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    hooks: { streamWrite },
  };
}

// pino-pretty is loaded only for a terminal: the service logs JSON, and should not carry it in memory.
const requireLazily = createRequire(import.meta.url);
const pinoPretty = (): typeof import('pino-pretty') => requireLazily('pino-pretty') as typeof import('pino-pretty');

export function createLogger(level: string, format: LogOutputFormat, output: JournalOutput = {}): Logger {
  const options = loggerOptions(level, format, output);
  const terminal = output.terminal;
  if (format === 'terminal' && terminal !== undefined)
    return pino(options, { write: (line: string) => terminal.write(line) });
  if (format === 'pretty' || format === 'terminal') {
    return pino(
      options,
      pinoPretty()({
        destination: 2,
        sync: true,
        colorize: true,
        ignore: 'pid,hostname',
        translateTime: 'SYS:HH:MM:ss',
      }),
    );
  }
  return pino(options, pino.destination({ dest: 2, sync: true }));
}
