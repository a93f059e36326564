import { acquireHostLock, pruneBuilds, selectPrune, type PruneSelection } from '../daemon/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch prune [--dry-run]

Deletes installed builds that are no longer needed, per upstream, keeping:
  - the newest keep_builds versions (the config's keep_builds, default 10);
  - the base release (the upstream's base:), which reports are relative to;
  - the last good release, which the next check compares with.
Failed builds (their logs) are left alone. A pruned release is built again when it is needed (e.g. when
\`invalid\` sends it back for another check). The daemon prunes after each check by itself; by hand, this
takes the host lock like the daemon, so it never deletes a build a session is running.

Options:
  --dry-run   list what would be kept (and why) and removed; delete nothing
Exit codes: 0 done; 1 a folder could not be removed; 2 bad input (or the daemon holds the host lock).
`;

const FLAGS = { 'dry-run': { type: 'boolean' } } as const;

export const pruneCommand: Command = {
  name: 'prune',
  summary: 'delete old installed builds, keeping the newest keep_builds, the base and the last good',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [{ does: 'See what would be deleted, delete nothing', line: 'qpswatch prune --dry-run' }],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    if (positionals.length > 0)
      throw new UsageError(`prune takes no arguments, got ${JSON.stringify(positionals[0])}`, HELP);
    const dryRun = values['dry-run'] === true;
    const lock = dryRun ? undefined : acquireHostLock(ctx.config.host_lock);
    try {
      const store = await openStateStore(ctx, { readonly: dryRun });
      try {
        const selection = dryRun
          ? await selectPrune(store, ctx.upstreams, ctx.config.keep_builds, ctx.config.state_dir)
          : (await pruneBuilds(store, ctx.upstreams, ctx.config.keep_builds, ctx.config.state_dir, ctx.log)).selection;
        ctx.stdout(renderPrune(selection, dryRun));
      } finally {
        await store.close();
      }
    } finally {
      lock?.release();
    }
    return EXIT_OK;
  },
};

function renderPrune(s: PruneSelection, dryRun: boolean): string {
  // Tags are data: JSON quoting shows odd characters instead of letting them act on a terminal.
  const keep = s.keep.map(
    (b) => `keep    ${b.upstream}  ${JSON.stringify(b.tag)}  ${b.reasons.join(', ')}  ${b.installDir}\n`,
  );
  const remove = s.remove.map(
    (b) => `${dryRun ? 'would remove' : 'removed'}  ${b.upstream}  ${JSON.stringify(b.tag)}  ${b.installDir}\n`,
  );
  const summary =
    `${s.keep.length} install(s) kept, ${s.remove.length} ` +
    `${dryRun ? 'to remove (dry run: nothing was deleted)' : 'removed'}\n`;
  return [...keep, ...remove, summary].join('');
}
