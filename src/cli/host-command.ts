import { mkdirSync } from 'node:fs';
import { printable } from '../report/index.js';
import {
  describeIdleHold,
  fingerprintId,
  holdIdleStates,
  hostFingerprint,
  idleHoldSetting,
  noIdleStateHold,
  type HostInventory,
  type IdleHoldSetting,
  type IdleStateHold,
} from '../sampling/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { parseCommandArgs } from './parse-args.js';

const HELP = `Usage: qpswatch host [--json]

Prints this host's fingerprint: CPU model, sockets, cores, SMT, NUMA nodes, memory, kernel, CPU governor,
the device and filesystem that hold state_dir, and the compiler. Results from hosts with different
fingerprint ids are never compared. idleStatesHeld and idleStatesHold say whether this process can hold the
CPUs' idle states (hold_idle_states: /dev/cpu_dma_latency), as a session started the same way would, and the fix
when it cannot: run it as the service's user (sudo -u qpswatch qpswatch host) to see what the service gets.

Under it, the host's inventory (systeminformation): system model and virtualization, firmware, board,
CPU details and caches, memory modules, the disks and filesystem under state_dir, OS release, gcc.
It describes the host for people and does not change the fingerprint id; facts no source could give
are "unknown".
`;

const FLAGS = { json: { type: 'boolean' } } as const;

export const hostCommand: Command = {
  name: 'host',
  summary: "print this host's fingerprint (what results depend on)",
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [{ does: "This host's fingerprint", line: 'qpswatch host' }],
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, FLAGS, HELP);
    mkdirSync(ctx.config.state_dir, { recursive: true });
    // Taken and given back at once, so the id printed is the one a session started like this one would record.
    const hold = tryIdleHold(ctx.config.hold_idle_states, idleHoldSetting(ctx.env));
    const { inventory, ...fingerprint } = await hostFingerprint(ctx.config.state_dir, { idleStatesHeld: hold.held });
    const id = fingerprintId(fingerprint);
    if (values.json === true) {
      const idleStatesHold = { held: hold.held, reason: hold.reason, fix: hold.fix };
      ctx.stdout(`${JSON.stringify({ fingerprintId: id, ...fingerprint, idleStatesHold, inventory }, null, 2)}\n`);
    } else {
      ctx.stdout(
        renderHost(
          [...Object.entries({ fingerprintId: id, ...fingerprint }), ['idleStatesHold', describeIdleHold(hold)]],
          inventory,
        ),
      );
    }
    return EXIT_OK;
  },
};

type Row = [string, unknown];

function tryIdleHold(wanted: boolean, setting: IdleHoldSetting): IdleStateHold {
  const hold = wanted ? holdIdleStates(setting) : noIdleStateHold();
  hold.release();
  return hold;
}

/** The fingerprint's facts, then the inventory's as dotted keys (memory modules and disks one line each). */
export function renderHost(facts: readonly Row[], inventory: HostInventory | undefined): string {
  const rows: Row[] =
    inventory === undefined
      ? [...facts]
      : [...facts, ['inventory', '(does not change the id)'], ...inventoryRows(inventory)];
  const width = Math.max(...rows.map(([k]) => k.length));
  // DMI strings and tool output are data: a control character in one must not reach the terminal.
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${printable(String(v))}`).join('\n') + '\n';
}

function inventoryRows(inventory: HostInventory): Row[] {
  const { memory, disks, unavailable, ...sections } = inventory;
  const rows: Row[] = Object.entries(sections).flatMap(([section, facts]) =>
    Object.entries(facts).map(([k, v]): Row => [`  ${section}.${k}`, v]),
  );
  rows.push(['  memory.installedBytes', memory.installedBytes]);
  memory.modules.forEach((m, i) => rows.push([`  memory.module${i}`, pairs(m)]));
  disks.forEach((d, i) => rows.push([`  disk${i}`, pairs(d)]));
  for (const [source, reason] of Object.entries(unavailable)) rows.push([`  unavailable.${source}`, reason]);
  return rows;
}

function pairs(facts: object): string {
  return Object.entries(facts)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}
