import type { ParseArgsConfig } from 'node:util';
import type { Logger, TerminalOutput } from '../log/index.js';
import type { Config } from '../config/index.js';
import type { Upstream } from '../upstream/index.js';

/** What every command gets: the loaded config, a logger, and where to write its output. */
export interface CommandContext {
  config: Config;
  configFile: string | undefined;
  /** config.upstreams, each parsed by the upstream room's schema at start-up. */
  upstreams: Upstream[];
  log: Logger;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: (text: string) => void;
  /** The width of the terminal stdout goes to (100 when it is no terminal): what help and lists wrap at. */
  columns: number;
  /** stdout is a terminal and NO_COLOR is not set: text reports may colour their cells. */
  stdoutColor: boolean;
  /**
   * The terminal's status line, for the progress of long work: undefined when stderr is no terminal (plain log
   * lines then, JSON by default), with --log-format json or pretty, and with --quiet.
   */
  statusLine: TerminalOutput | undefined;
  /** Set by SIGINT/SIGTERM, so long work stops by escalation and records itself as interrupted. */
  signal: AbortSignal;
}

/** A command's flags as node's parseArgs takes them: what --help lists and what a dry parse checks. */
export type CommandFlags = NonNullable<ParseArgsConfig['options']>;

/** One worked example for a command's help: what it does, then the line to type. */
export interface Example {
  does: string;
  line: string;
}

export interface Command {
  name: string;
  summary: string;
  help: string;
  /** Every flag the command (or any of its subcommands) takes. */
  flags: CommandFlags;
  /** Whether it takes arguments besides its flags (an id, a tag, a subcommand). */
  positionals: boolean;
  /** Shown under Examples in its --help; each line is checked to parse by a unit test. */
  examples: readonly Example[];
  /** Commands that only read a file (config check) load no config of their own. */
  needsConfig: boolean;
  /**
   * The command reads the config file itself with these arguments (`config check` reports every problem of it in
   * one run): the context then holds the defaults, and configFile names the file.
   */
  readsConfigItself?: (args: readonly string[]) => boolean;
  run(args: string[], ctx: CommandContext): Promise<number>;
}
