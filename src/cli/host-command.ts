import { mkdirSync } from 'node:fs';
import { fingerprintId, hostFingerprint } from '../sampling/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { parseCommandArgs } from './parse-args.js';

const HELP = `Usage: qpswatch host [--json]

Prints this host's fingerprint: CPU model, sockets, cores, SMT, NUMA nodes, memory, kernel, CPU governor,
the device and filesystem that hold state_dir, and the compiler. Results from hosts with different
fingerprint ids are never compared.
`;

export const hostCommand: Command = {
  name: 'host',
  summary: "print this host's fingerprint (what results depend on)",
  help: HELP,
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' } }, HELP);
    mkdirSync(ctx.config.state_dir, { recursive: true });
    const fingerprint = await hostFingerprint(ctx.config.state_dir);
    const id = fingerprintId(fingerprint);
    if (values.json === true) {
      ctx.stdout(`${JSON.stringify({ fingerprintId: id, ...fingerprint }, null, 2)}\n`);
    } else {
      const rows = Object.entries({ fingerprintId: id, ...fingerprint });
      const width = Math.max(...rows.map(([k]) => k.length));
      ctx.stdout(rows.map(([k, v]) => `${k.padEnd(width)}  ${String(v)}`).join('\n') + '\n');
    }
    return EXIT_OK;
  },
};
