import type { Upstream } from '../upstream/index.js';
import type { CommandContext } from './command.js';
import { UsageError } from './usage-error.js';

/** The upstream a series flag names; with no flag, the only upstream of the config. */
export function seriesFromFlag(name: string | undefined, ctx: CommandContext): Upstream {
  const names = ctx.upstreams.map((u) => u.name).join(', ');
  if (ctx.upstreams.length === 0)
    throw new UsageError('the config has no upstreams: add one under upstreams: (a series is an upstream)');
  if (name === undefined) {
    if (ctx.upstreams.length === 1) return ctx.upstreams[0]!;
    throw new UsageError(`name a series with --series: one of ${names}`);
  }
  const upstream = ctx.upstreams.find((u) => u.name === name);
  if (upstream === undefined)
    throw new UsageError(`--series ${JSON.stringify(name)}: no such upstream; use one of ${names}`);
  return upstream;
}
