import { join } from 'node:path';
import { projectRoot } from '../paths.js';
import type { CommandContext } from './command.js';
import { UsageError } from './usage-error.js';

/** Names the config that lacks upstreams and a shipped file that has one to copy from. */
export function noUpstreamsError(ctx: Pick<CommandContext, 'configFile'>, help?: string): UsageError {
  const where =
    ctx.configFile !== undefined
      ? `config ${ctx.configFile} has no upstreams`
      : 'no config file was given (--config FILE), so there are no upstreams';
  const example = join(projectRoot, 'systemd', 'qpswatch.example.yaml');
  return new UsageError(
    `${where}: add one under upstreams: (an example: ${example}; the fields: qpswatch config options)`,
    help,
  );
}
