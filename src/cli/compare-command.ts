import { waitForHostLock } from '../daemon/index.js';
import { checkSessionReach, compareSettings, runComparison } from '../pipeline/index.js';
import { parseReportFormat, renderComparison } from '../report/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { parseCommandArgs } from './parse-args.js';
import { SUITE_FLAGS, SUITE_FLAGS_HELP, suiteFromFlags } from './suite-flags.js';
import { UsageError } from './usage-error.js';
import { openStateStore } from './open-state-store.js';

const HELP = `Usage: qpswatch compare --baseline NAME --candidate NAME [options]

Runs one comparison session on this host. Paired design (default): both targets are loaded, both
servers run side by side on fresh copies of their loaded datadirs, and every test is measured as
short alternating pairs seconds apart (B C, C B, ...), the other server idle and settled; pairs are
added to the tests not yet decided until all are decided or the budget is spent. Whole-run design
(--design runs or --rounds N): whole-suite runs in rounds, one server at a time.
Prints relative QPS per test with its interval, the smallest drop the session could detect, and a
verdict: regression, improvement, ok ("no drop larger than X%"), slower (significantly slower, not
past the threshold: "slower 0.962 (0.931-0.987)") or unstable; then per test the host
resources per operation (cpu/o cs/o r/o rKB/o wKB/o o/s), absolute and relative to the baseline
(threshold, test_thresholds, alpha and confidence in the config; see docs/verdicts.md).
Targets are named in the config (targets:; see config/quickstart.yaml), or are releases qpswatch built:
TAG runs the build with its upstream's build profile, TAG@PROFILE the build with that profile (qpswatch
build TAG@PROFILE first), so one tag can be compared with itself built two ways, e.g.
  --baseline mariadb-10.11.9@mariadb-rel --candidate mariadb-10.11.9@mariadb-rel-nops
The report names each side's build profile.

Options:
  --baseline NAME      target B, the reference
  --candidate NAME     target C, the one being judged
${SUITE_FLAGS_HELP}
  --format FORMAT      text (default), md, csv, json or html

One benchmark or build at a time on a host (host_lock): a compare waits while another compare, a check
or a build runs, and stops at once when a daemon holds the host.

Progress goes to stderr as log lines; the report goes to stdout.
Exit codes: 0 done; 1 failed on the way (server, sysbench, store); 2 bad input (or a daemon holds the host).
`;

export const compareCommand: Command = {
  name: 'compare',
  summary: 'benchmark two targets against each other, interleaved, and print the report',
  help: HELP,
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      {
        baseline: { type: 'string' },
        candidate: { type: 'string' },
        ...SUITE_FLAGS,
        format: { type: 'string' },
      },
      HELP,
    );
    if (values.baseline === undefined || values.candidate === undefined) throw new UsageError('compare needs --baseline and --candidate', HELP);
    const format = parseReportFormat(values.format ?? 'text');
    const { suite, rounds, shape } = suiteFromFlags(values, ctx);
    const request = { baseline: values.baseline, candidate: values.candidate, suite, rounds, ...shape };
    const settings = compareSettings(ctx.config, ctx.env);
    // Settings that can never reach a verdict are refused at once, not after waiting for the host.
    checkSessionReach(request, settings);
    const holds = `a compare session (${JSON.stringify(values.baseline)} against ${JSON.stringify(values.candidate)})`;
    const lock = await waitForHostLock(ctx.config.host_lock, { command: 'compare', holds, signal: ctx.signal, log: ctx.log });
    try {
      const store = await openStateStore(ctx);
      try {
        const outcome = await runComparison(request, { settings, store, log: ctx.log, upstreams: ctx.upstreams, signal: ctx.signal });
        ctx.stdout(renderComparison(outcome.view, format));
      } finally {
        await store.close();
      }
    } finally {
      lock.release();
    }
    return EXIT_OK;
  },
};
