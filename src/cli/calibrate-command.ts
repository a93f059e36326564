import { calibrationTarget, compareSettings, runCalibration } from '../session/index.js';
import { renderCalibration } from './calibration-text.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { withProgress } from './progress-display.js';
import { parseCommandArgs } from './parse-args.js';
import { suiteFromFlags } from './suite-flags.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch calibrate [--suite NAME|FILE] [--budget MIN] [--target NAME]

Measures how noisy this host is, so you know how small a drop a session can catch here and what
that costs. Runs the suite with one target as both baseline and candidate (paired design: both
servers up, each test measured in alternating pairs), giving every test a pair in every sweep until
the budget is spent, and deciding nothing early. Then prints per test (test.tN):
  pair noise       the standard deviation of one pair's log(C/B), outliers clipped: the noise of a pair
  pair s           the wall seconds of one pair (both halves and the switch between servers)
  pairs for 5%     the fewest pairs that detect a 5% drop 4 times in 5 at the session's alpha
                   (spent over the looks at 8, 12, 18, 27... pairs, shared by all the suite's tests)
  min for 5%       what those pairs cost, in minutes
  drop now         the drop this calibration's own pairs could detect
  drop in N min    the drop a release's session detects within its budget
and the totals: the minutes of pairs a release takes at its budget (budget_minutes, else the suite's)
and the detectable drop per test expected there. The result is stored for this host and suite:
\`qpswatch status\` shows it, and the daemon logs the expectation before each check.

Options:
  --suite NAME|FILE    a suite in suites_dir (default: the suite option, quick)
  --budget MIN         minutes of pairs for the calibration (default: the suite's budget_minutes);
                       loading and warm-up come on top. More minutes: firmer noise figures.
  --target NAME        the target to run against itself (default: calibrate_target, else the
                       first of targets: in the config); a target name or a built release tag

Progress goes to stderr as log lines; the table goes to stdout.
Exit codes: 0 done; 1 failed on the way (server, sysbench, store); 2 bad input.
`;

const FLAGS = { suite: { type: 'string' }, budget: { type: 'string' }, target: { type: 'string' } } as const;

export const calibrateCommand: Command = {
  name: 'calibrate',
  summary: "run a suite against itself: this host's pair noise, and the pairs and minutes a 5% detectable drop costs",
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [
    {
      does: 'How small a drop this host can catch with the quick suite',
      line: 'qpswatch calibrate --suite quick --budget 20',
    },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, FLAGS, HELP);
    if (values.target === '')
      throw new UsageError(
        '--target "": expected a target name from the config\'s targets: or a built release tag',
        HELP,
      );
    const { suite, shape } = suiteFromFlags({ suite: values.suite, budget: values.budget, design: 'paired' }, ctx);
    // A config with nothing to calibrate is bad input: said before the store is opened or created.
    const target = values.target ?? calibrationTarget(ctx.config);
    const store = await openStateStore(ctx);
    try {
      const outcome = await withProgress(ctx, 'calibrate', (onWorkProgress) =>
        runCalibration(
          { suite, target, ...(shape.budgetMinutes !== undefined ? { budgetMinutes: shape.budgetMinutes } : {}) },
          {
            settings: compareSettings(ctx.config, ctx.env),
            store,
            log: ctx.log,
            upstreams: ctx.upstreams,
            signal: ctx.signal,
            onWorkProgress,
          },
        ),
      );
      ctx.stdout(renderCalibration({ ...outcome, fingerprintId: outcome.record.fingerprintId }));
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};
