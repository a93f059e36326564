import { printable } from '../report/index.js';
import type { ReleaseRecord } from '../store/index.js';
import { discoverAll } from '../releases/index.js';
import { buildsFromSource } from '../upstream/index.js';
import type { Command } from './command.js';
import { EXIT_FAILED, EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { releaseStates } from './release-states.js';
import { noUpstreamsError } from './no-upstreams.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch discover [--upstream NAME] [--json]

Asks every upstream of the config (upstreams:) for its release tags with \`git ls-remote\`, records the
releases its flavor, series and filters select, and lists them in version order with their state:
new, building, built, build failed, benchmarked. A tag that moved to another commit upstream is said so
in the log and recorded. An upstream that fails (unreachable, not a git repository) is reported in one
line and the others go on; the exit code is then 1.

Options:
  --upstream NAME   only this upstream
  --json            the releases as JSON
`;

const FLAGS = { upstream: { type: 'string' }, json: { type: 'boolean' } } as const;

export const discoverCommand: Command = {
  name: 'discover',
  summary: 'list the releases of each upstream in version order, with their state',
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [
    { does: 'List the releases of every upstream', line: 'qpswatch discover' },
    { does: 'One upstream only', line: 'qpswatch discover -u mariadb-10.11' },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, FLAGS, HELP);
    const upstreams = ctx.upstreams.filter((u) => values.upstream === undefined || u.name === values.upstream);
    if (ctx.upstreams.length === 0) throw noUpstreamsError(ctx, HELP);
    if (upstreams.length === 0)
      throw new UsageError(
        `--upstream ${values.upstream}: no such upstream; use one of ${ctx.upstreams.map((u) => u.name).join(', ')}`,
      );
    const store = await openStateStore(ctx);
    try {
      const outcomes = await discoverAll(upstreams, store, ctx.log, ctx.signal);
      const listing: Array<{ upstream: string; error?: string; releases: Array<ReleaseRecord & { state: string }> }> =
        [];
      for (const outcome of outcomes) {
        const releases = await store.listReleases(outcome.upstream);
        const upstream = upstreams.find((u) => u.name === outcome.upstream);
        const states = await releaseStates(
          store,
          releases,
          upstream !== undefined && buildsFromSource(upstream) ? upstream.buildProfile : undefined,
        );
        listing.push({
          upstream: outcome.upstream,
          ...(outcome.error !== undefined ? { error: outcome.error } : {}),
          releases: releases.map((r) => ({ ...r, state: states.get(r.id)! })),
        });
      }
      ctx.stdout(
        values.json === true ? `${JSON.stringify(listing, null, 2)}\n` : listing.map(renderUpstream).join('\n'),
      );
      return outcomes.some((o) => o.error !== undefined) ? EXIT_FAILED : EXIT_OK;
    } finally {
      await store.close();
    }
  },
};

function renderUpstream(entry: {
  upstream: string;
  error?: string;
  releases: Array<ReleaseRecord & { state: string }>;
}): string {
  // The error may quote git or the remote's server: data, escaped like any error line.
  const head = `${entry.upstream}${entry.error !== undefined ? `: discovery failed: ${printable(entry.error)}` : ''}\n`;
  if (entry.releases.length === 0) return `${head}  (no releases)\n`;
  const tagWidth = Math.max(...entry.releases.map((r) => JSON.stringify(r.tag).length));
  const rows = entry.releases.map((r) => {
    const moved = r.movedFrom !== null ? `  (moved from ${r.movedFrom.slice(0, 12)})` : '';
    // Tags are data: JSON quoting shows any odd character instead of letting it act on the terminal.
    return (
      `  ${JSON.stringify(r.tag).padEnd(tagWidth)}  ${r.version.padEnd(10)}  ` +
      `${r.commit.slice(0, 12)}  ${r.state}${moved}`
    );
  });
  return `${head}${rows.join('\n')}\n`;
}
