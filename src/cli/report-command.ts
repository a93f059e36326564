import { seriesHistory, seriesHostsHistory } from '../views/index.js';
import { parseReportFormat, renderHistory, renderHostsHistory } from '../report/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { seriesFromFlag } from './series-flag.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch report [--series NAME] [--base VERSION] [--host ID | --by-host] [--format FORMAT]

History across the releases of a series (an upstream of the config), relative to a base release, in the
layout of the reference "relative QPS" studies:
  - relative QPS by version, one table per level (thread count): one row per version, one column per
    test, against the base, chained through the paired checks (each release against its last good, or
    directly against the base) with its interval, e.g. 0.89 (0.85-0.92); a version with no chain (an
    import, a check from before verdicts kept their standard error) shows the median ratio, marked ~. A
    step down or up is marked where it began; a chained estimate under the threshold says "drift
    suspected" and how to confirm it;
  - for the tests the instructions lane counted (1 client thread), instructions per query by version and
    its ratio to the base's stored count under the same conditions, directly (no chain), e.g. 43,990
    (1.0312), coloured by the lane's verdict against the base (instructions_threshold);
  - per test, host resources per operation (cpu/o cs/o r/o rKB/o wKB/o o/s) by version, absolute and
    relative to the base. A ratio of 0 to 0 prints as 1.
Per-op figures are medians over every sample of every valid session that ran the version on one host.
Imported results (qpswatch import) fill versions not measured here and are marked with *.
The html format adds a trend chart per test: the chained line, its interval as a band, the threshold.

With --by-host, every host that measured the series side by side, as the studies compare their servers: one
table per level, a row per version, per test one column per host (h1, h2, ... named below the title by
fingerprint id, CPU, cores and memory). Each host's figures are relative to the base measured on that same
host (chained through its own checks, else the median ratio ~); one host's QPS is never divided by another's.
Imported results are left out. Without --base: the upstream's base:, else the oldest version every host
measured.

Options:
  --series NAME     the upstream (default: the only one)
  --base VERSION    the base release (default: the upstream's base:, else the oldest version)
  --host ID         a host fingerprint id (default: the host of the newest session)
  --by-host         every host side by side (relative QPS only); not with --host
  --format FORMAT   text (default), md, csv, json or html
Exit codes: 0 printed; 2 bad input (unknown series or base, no results yet).
`;

const FLAGS = {
  series: { type: 'string' },
  base: { type: 'string' },
  host: { type: 'string' },
  'by-host': { type: 'boolean' },
  format: { type: 'string' },
} as const;

export const reportCommand: Command = {
  name: 'report',
  summary: 'history of a series: relative QPS and per-op resources by version, against a base',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [
    { does: "A series' history relative to its base", line: 'qpswatch report --series mariadb-10.11' },
    {
      does: 'As a web page with a chart per test family',
      line: 'qpswatch report --series mariadb-10.11 -f html > history.html',
    },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    if (positionals.length > 0)
      throw new UsageError(`report takes no arguments, got ${JSON.stringify(positionals[0])}`, HELP);
    const byHost = values['by-host'] === true;
    if (byHost && values.host !== undefined)
      throw new UsageError('--host and --by-host do not go together: --by-host shows every host', HELP);
    const format = parseReportFormat(values.format ?? 'text');
    const upstream = seriesFromFlag(values.series, ctx);
    const store = await openStateStore(ctx, { readonly: true });
    try {
      const verdicts = {
        threshold: ctx.config.threshold,
        testThresholds: ctx.config.test_thresholds,
        confidence: ctx.config.confidence,
      };
      const base = values.base !== undefined ? { base: values.base } : {};
      if (byHost) {
        ctx.stdout(renderHostsHistory(await seriesHostsHistory(store, upstream, { verdicts, ...base }), format));
        return EXIT_OK;
      }
      const view = await seriesHistory(store, upstream, {
        verdicts,
        instructions: {
          threshold: ctx.config.instructions_threshold,
          testThresholds: ctx.config.instructions_test_thresholds,
        },
        ...base,
        ...(values.host !== undefined ? { host: values.host } : {}),
      });
      ctx.stdout(renderHistory(view, format));
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};
