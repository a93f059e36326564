import { closestName } from '../config/index.js';
import type { Command } from './command.js';
import { takeGlobalOptions } from './global-options.js';
import { parseCommandArgs } from './parse-args.js';
import { UsageError } from './usage-error.js';
import { bisectCommand } from './bisect-command.js';
import { buildCommand } from './build-command.js';
import { compareCommand } from './compare-command.js';
import { calibrateCommand } from './calibrate-command.js';
import { configCommand } from './config-command.js';
import { discoverCommand } from './discover-command.js';
import { hostCommand } from './host-command.js';
import { checkCommand } from './check-command.js';
import { acceptCommand, ackCommand, invalidCommand } from './triage-commands.js';
import { reportCommand } from './report-command.js';
import { sessionsCommand } from './sessions-command.js';
import { showCommand } from './show-command.js';
import { exportCommand, importCommand } from './import-export-commands.js';
import { outboxCommand } from './outbox-command.js';
import { daemonCommand } from './daemon-command.js';
import { metricsCommand } from './metrics-command.js';
import { onceCommand } from './once-command.js';
import { profileCommand } from './profile-command.js';
import { pruneCommand } from './prune-command.js';
import { statusCommand } from './status-command.js';
import { storeCommand } from './store-command.js';

export const COMMANDS: readonly Command[] = [
  daemonCommand,
  onceCommand,
  statusCommand,
  discoverCommand,
  buildCommand,
  pruneCommand,
  compareCommand,
  profileCommand,
  calibrateCommand,
  checkCommand,
  bisectCommand,
  sessionsCommand,
  showCommand,
  reportCommand,
  metricsCommand,
  acceptCommand,
  ackCommand,
  invalidCommand,
  importCommand,
  exportCommand,
  outboxCommand,
  configCommand,
  hostCommand,
  storeCommand,
];

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `qpswatch: benchmarks MySQL-family server releases with sysbench and reports relative QPS
with host resources per operation (cpu/o, cs/o, r/o, rKB/o, wKB/o).

Usage: qpswatch [-c FILE] [-q] [--log-level LEVEL] [--log-format auto|json|pretty] COMMAND [ARGS]
       qpswatch help COMMAND      (or qpswatch COMMAND --help): its options and examples
       qpswatch --version

Start here: \`npm run quickstart\` compares this host's MariaDB under two configs; \`qpswatch sessions\`
lists what was measured and \`qpswatch show ID\` prints a session again.

Commands:
${rows}

The config file may also be named by QPSWATCH_CONFIG; without either, the service's config
/etc/qpswatch/qpswatch.yaml is read when it exists, and state and cache then default to the service's
/var/lib/qpswatch and /var/cache/qpswatch. Every option can be set by QPSWATCH_<OPTION>
(see \`qpswatch config options\`). Without a config file qpswatch runs on the defaults.
status, sessions, show, report, metrics, export and outbox (without --send) only read the store: a user who may
read it can run them.

Global options: -c, --config FILE; -q, --quiet (no progress line, warnings and errors only);
--log-level LEVEL; --log-format auto|json|pretty. NO_COLOR=1 turns colour off.
Exit codes: 0 done; 1 failed on the way (server, sysbench, store); 2 bad input (usage, config, names).
`;
}

/** The command of that name; a typo gets the nearest name (`unknown command 'sesions'; did you mean 'sessions'?`). */
export function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command !== undefined) return command;
  const guess = closestName(
    name,
    COMMANDS.map((c) => c.name),
  );
  throw new UsageError(
    guess !== undefined
      ? `unknown command '${name}'; did you mean '${guess}'?`
      : `unknown command '${name}': \`qpswatch help\` lists the commands`,
  );
}

/** A command's whole help: its usage and options, then its examples. */
export function commandHelp(command: Command): string {
  if (command.examples.length === 0) return command.help;
  const examples = command.examples.map((e) => `  ${e.does}:\n    ${e.line}\n`).join('');
  return `${command.help.trimEnd()}\n\nExamples:\n${examples}`;
}

/**
 * Checks a command line as qpswatch would take it, without running anything: the global options, a command that
 * exists, and flags that parse. For the examples in the help and the commands the README shows; the line is
 * split on spaces (quotes are not read), and anything after a pipe or a redirection is left out.
 */
export function checkCommandLine(line: string): Command {
  const words = line.trim().split(/\s+/);
  const end = words.findIndex((w) => w === '|' || w.startsWith('>') || w === '&&' || w === '2>&1');
  const argv = (end < 0 ? words : words.slice(0, end)).slice(1);
  const globals = takeGlobalOptions(argv);
  const [name, ...args] = globals.rest;
  if (name === undefined) throw new UsageError(`${line}: no command`);
  const command = findCommand(name);
  parseCommandArgs(args, command.flags, command.help, command.positionals);
  return command;
}
