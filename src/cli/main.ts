import { InputError } from '../errors.js';
import { parseUpstream } from '../upstream/index.js';
import { ConfigError, LOG_LEVELS, findConfigFile, loadConfig, type Config } from '../config/index.js';
import {
  createLogger,
  redactUrlCredentials,
  resolveLogFormat,
  withPriority,
  type LogFormat,
  type Logger,
} from '../log/index.js';
import { printable } from '../report/index.js';
import type { Command, CommandContext } from './command.js';
import { COMMANDS, mainHelp } from './commands.js';
import { EXIT_BAD_INPUT, EXIT_FAILED } from './exit-codes.js';
import { packageVersion } from './package-version.js';
import { takeGlobalOptions, type GlobalOptions } from './global-options.js';
import { UsageError } from './usage-error.js';

export interface MainIO {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTTY: boolean;
  /** stderr is the stream systemd connected to journald (JOURNAL_STREAM names it): log lines carry priorities. */
  stderrIsJournal?: boolean;
  signal: AbortSignal;
}

/** Runs one qpswatch command and returns its exit code; the only caller of process.exit-like decisions. */
export async function main(argv: readonly string[], io: MainIO): Promise<number> {
  let log: Logger | undefined;
  try {
    const globals = takeGlobalOptions(argv);
    const [name, ...args] = globals.rest;
    if (name === '--version' || name === '-V') {
      io.stdout(`qpswatch ${packageVersion()}\n`);
      return 0;
    }
    if (name === undefined || name === 'help') {
      io.stdout(mainHelp());
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === name);
    if (command === undefined) throw new UsageError(`unknown command '${name}': run \`qpswatch --help\` for the list`);
    if (globals.help) {
      io.stdout(command.help);
      return 0;
    }
    const ctx = buildContext(command, globals, io);
    log = ctx.log;
    return await command.run(args, ctx);
  } catch (err) {
    // Under journald the last words are filed as errors too, not at the stream's default priority.
    const stderr = io.stderrIsJournal === true ? (text: string) => io.stderr(withPriority(text, 3)) : io.stderr;
    return reportError(err, { ...io, stderr }, log);
  }
}

function buildContext(command: Command, globals: GlobalOptions, io: MainIO): CommandContext {
  const configFile = findConfigFile(globals.configFile, io.env);
  const overrides: Partial<Config> = {};
  if (globals.logLevel !== undefined) overrides.log_level = globals.logLevel as Config['log_level'];
  if (globals.logFormat !== undefined) overrides.log_format = globals.logFormat as Config['log_format'];
  const file = command.needsConfig ? configFile : undefined;
  const config = loadConfig({ file, env: io.env, cwd: io.cwd, overrides });
  checkLogOverrides(config);
  const log = createLogger(config.log_level, resolveLogFormat(config.log_format as LogFormat, io.env, io.stderrIsTTY), {
    journal: io.stderrIsJournal === true,
  });
  const upstreams = config.upstreams.map(parseUpstream);
  return { config, configFile: file, upstreams, log, env: io.env, cwd: io.cwd, stdout: io.stdout, signal: io.signal };
}

/** Command-line values skip the file's schema check, so the two enum flags are checked here. */
function checkLogOverrides(config: Config): void {
  const levels: readonly string[] = LOG_LEVELS;
  if (!levels.includes(config.log_level))
    throw new UsageError(`--log-level ${config.log_level}: expected one of ${levels.join(', ')}`);
  if (!['auto', 'json', 'pretty'].includes(config.log_format))
    throw new UsageError(`--log-format ${config.log_format}: expected one of auto, json, pretty`);
}

/** One clear line for errors people can act on; a stack only for what looks like a bug in qpswatch itself. */
function reportError(err: unknown, io: MainIO, log: Logger | undefined): number {
  const say = (text: string): void => io.stderr(shownLines(text));
  if (err instanceof UsageError || err instanceof ConfigError) {
    say(`qpswatch: ${err.message}`);
    if (err instanceof UsageError && err.help !== undefined) io.stderr(`\n${err.help}`);
    return EXIT_BAD_INPUT;
  }
  if (err instanceof InputError) {
    say(`qpswatch: ${err.message}`);
    return EXIT_BAD_INPUT;
  }
  const looksLikeBug =
    !(err instanceof Error) ||
    [Error, TypeError, RangeError, ReferenceError, SyntaxError].some((c) => err.constructor === c);
  const message = err instanceof Error ? err.message : String(err);
  log?.debug({ err }, 'command failed');
  say(`qpswatch: ${message}`);
  if (looksLikeBug && err instanceof Error && err.stack !== undefined) say(err.stack);
  return EXIT_FAILED;
}

/**
 * An error's text as it may reach a terminal: a URL's user part hidden, and each line escaped by printable(), since
 * a message may quote a config value, a remote, a lock file or server output. Each line ends in a newline.
 */
export function shownLines(text: string): string {
  return text
    .split('\n')
    .map((line) => `${printable(redactUrlCredentials(line))}\n`)
    .join('');
}
