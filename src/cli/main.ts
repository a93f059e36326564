import { InputError } from '../errors.js';
import { parseUpstream } from '../upstream/index.js';
import {
  ConfigError,
  LOG_LEVELS,
  findConfigFile,
  loadConfig,
  unknownEnvironmentVariables,
  type Config,
} from '../config/index.js';
import {
  createLogger,
  redactUrlCredentials,
  resolveLogFormat,
  TerminalOutput,
  withPriority,
  type LogFormat,
  type Logger,
} from '../log/index.js';
import { printable } from '../report/index.js';
import type { Command, CommandContext } from './command.js';
import { commandHelp, findCommand, mainHelp } from './commands.js';
import { EXIT_BAD_INPUT, EXIT_FAILED } from './exit-codes.js';
import { packageVersion } from './package-version.js';
import { takeGlobalOptions, type GlobalOptions } from './global-options.js';
import { UsageError } from './usage-error.js';
import { checkCommandFolders } from './state-folders.js';

export interface MainIO {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stderrIsTTY: boolean;
  stdoutIsTTY?: boolean;
  /** The terminals' widths, when they are terminals. */
  stdoutColumns?: number;
  stderrColumns?: () => number;
  /** stderr is the stream systemd connected to journald (JOURNAL_STREAM names it): log lines carry priorities. */
  stderrIsJournal?: boolean;
  signal: AbortSignal;
}

/** Runs one qpswatch command and returns its exit code; the only caller of process.exit-like decisions. */
export async function main(argv: readonly string[], io: MainIO): Promise<number> {
  let log: Logger | undefined;
  let commandName: string | undefined;
  try {
    const globals = takeGlobalOptions(argv);
    const [name, ...args] = globals.rest;
    if (name === '--version' || name === '-V') {
      io.stdout(`qpswatch ${packageVersion()}\n`);
      return 0;
    }
    if (name === undefined || (name === 'help' && args.length === 0)) {
      io.stdout(mainHelp());
      return 0;
    }
    if (name === 'help') {
      io.stdout(commandHelp(findCommand(args[0]!)));
      return 0;
    }
    const command = findCommand(name);
    commandName = command.name;
    if (globals.help) {
      io.stdout(commandHelp(command));
      return 0;
    }
    // Named before the config loads: a misspelt variable (QPSWATCH_CONFG) may be why loading it fails.
    const unknown = unknownEnvironmentVariables(io.env);
    let ctx: CommandContext;
    try {
      ctx = buildContext(command, globals, io, command.readsConfigItself?.(args) === true);
    } catch (err) {
      // No logger yet (its level and format come from the config): the warnings go out as plain lines.
      for (const warning of unknown) io.stderr(shownLines(`qpswatch: warning: ${warning}`));
      throw err;
    }
    log = ctx.log;
    for (const warning of unknown) log.warn(warning);
    // Before anything of the state folder is used (the store, a build's install, a lock): see state-folders.ts.
    if (command.needsConfig) checkCommandFolders(command.name, ctx.config);
    return await command.run(args, ctx);
  } catch (err) {
    // Under journald the last words are filed as errors too, not at the stream's default priority.
    const stderr = io.stderrIsJournal === true ? (text: string) => io.stderr(withPriority(text, 3)) : io.stderr;
    return reportError(err, { ...io, stderr }, log, commandName);
  }
}

function buildContext(command: Command, globals: GlobalOptions, io: MainIO, ownConfig: boolean): CommandContext {
  const found = findConfigFile(globals.configFile, io.env);
  const configFile = ownConfig ? undefined : found;
  const overrides: Partial<Config> = {};
  if (globals.logLevel !== undefined) overrides.log_level = globals.logLevel as Config['log_level'];
  else if (globals.quiet) overrides.log_level = 'warn';
  if (globals.logFormat !== undefined) overrides.log_format = globals.logFormat as Config['log_format'];
  const file = command.needsConfig ? configFile : undefined;
  const config = loadConfig({ file, env: io.env, cwd: io.cwd, overrides });
  checkLogOverrides(config);
  const format = resolveLogFormat(config.log_format as LogFormat, io.env, io.stderrIsTTY);
  const terminal =
    format === 'terminal'
      ? new TerminalOutput({
          write: io.stderr,
          columns: () => io.stderrColumns?.() ?? 80,
          color: !noColor(io.env),
          level: config.log_level,
        })
      : undefined;
  const log = createLogger(config.log_level, format, {
    journal: io.stderrIsJournal === true,
    ...(terminal !== undefined ? { terminal } : {}),
  });
  const upstreams = config.upstreams.map(parseUpstream);
  return {
    config,
    configFile: ownConfig ? found : file,
    upstreams,
    log,
    env: io.env,
    cwd: io.cwd,
    stdout: io.stdout,
    columns: io.stdoutColumns ?? 100,
    stdoutColor: io.stdoutIsTTY === true && !noColor(io.env),
    statusLine: globals.quiet ? undefined : terminal,
    signal: io.signal,
  };
}

/** NO_COLOR (no-color.org): set to anything but the empty text, no colour anywhere. */
export function noColor(env: MainIO['env']): boolean {
  const value = env['NO_COLOR'];
  return value !== undefined && value !== '';
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
function reportError(err: unknown, io: MainIO, log: Logger | undefined, commandName?: string): number {
  const say = (text: string): void => io.stderr(shownLines(text));
  if (err instanceof UsageError) {
    say(`qpswatch: ${usageLine(err, commandName)}`);
    return EXIT_BAD_INPUT;
  }
  if (err instanceof ConfigError) {
    say(`qpswatch: ${err.message}`);
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
 * A usage error in one line: its message, and where the command's usage is when the message names no fix of its
 * own (a did-you-mean, or another command to run). The whole help page is never printed after it.
 */
export function usageLine(err: UsageError, commandName: string | undefined): string {
  const hasFix = /did you mean|`qpswatch |this command takes /.test(err.message);
  if (hasFix || err.help === undefined || commandName === undefined) return err.message;
  return `${err.message} (\`qpswatch help ${commandName}\` shows its usage)`;
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
