import type { Command } from './command.js';
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

Usage: qpswatch [--config FILE] [--log-level LEVEL] [--log-format auto|json|pretty] COMMAND [ARGS]
       qpswatch COMMAND --help
       qpswatch --version

Commands:
${rows}

The config file may also be named by QPSWATCH_CONFIG; without either, the service's config
/etc/qpswatch/qpswatch.yaml is read when it exists, and state and cache then default to the service's
/var/lib/qpswatch and /var/cache/qpswatch. Every option can be set by QPSWATCH_<OPTION>
(see \`qpswatch config options\`). Without a config file qpswatch runs on the defaults.
status, sessions, show, report, metrics, export and outbox (without --send) only read the store: a user who may
read it can run them.

Exit codes: 0 done; 1 failed on the way (server, sysbench, store); 2 bad input (usage, config, names).
`;
}
