import { waitForHostLock } from '../daemon/index.js';
import { isProfilingMode, profilingModes, type ProfilingMode } from '../model/index.js';
import { lastGoodBelow } from '../checks/index.js';
import { renderProfileText } from '../report/index.js';
import { compareSettings, profileReport, runProfile, writeProfileFiles } from '../session/index.js';
import type { Suite, SuiteTest } from '../suite/index.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { findRelease } from './find-release.js';
import { openStateStore } from './open-state-store.js';
import { integerFlag, parseCommandArgs } from './parse-args.js';
import { suiteFromFlags } from './suite-flags.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch profile [--baseline NAME] [options] CANDIDATE TEST

Reruns one test of the suite on both servers, one after the other, under a sampling profiler with
call graphs: perf (cpu-clock, frame pointers) where it can run, else gdb's stack samples (a poor
man's profiler); the profiling option chooses. Prints the functions whose share of the samples grew
most from the baseline to the candidate (total and self share of B and C), and writes a differential
flame graph (SVG: widths are the candidate's samples, red grew, blue shrank) and an HTML page with
both under state_dir/profiles/ID/; the folded stacks of both sides are kept in the store.

CANDIDATE and the baseline are targets as compare takes them: names from the config's targets, or
release tags qpswatch built (TAG, TAG@PROFILE).

Options:
  --baseline NAME      target B (default: the last good release below CANDIDATE, when it is a release)
  --suite NAME|FILE    the suite TEST is in (default: the suite option)
  --threads N          client threads (default: the test's first thread count)
  --seconds N          seconds each server is sampled (default: profile_seconds, 10)
  --profiler MODE      auto, perf or gdb (default: the profiling option, auto)

Exit codes: 0 done; 1 failed on the way, or no profiler could run (one line says why); 2 bad input.
`;

const FLAGS = {
  baseline: { type: 'string' },
  suite: { type: 'string' },
  threads: { type: 'string' },
  seconds: { type: 'string' },
  profiler: { type: 'string' },
} as const;

export const profileCommand: Command = {
  name: 'profile',
  summary: 'profile one test on two targets and show the functions that grew (flame graph)',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [
    {
      does: 'Where update-index spends its time under durable against relaxed',
      line: 'qpswatch profile --baseline relaxed durable update-index',
    },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    if (positionals.length !== 2) throw new UsageError('profile needs CANDIDATE and TEST', HELP);
    const [candidate, testName] = positionals as [string, string];
    const mode = profilerMode(values.profiler ?? ctx.config.profiling);
    const seconds = integerFlag('--seconds', values.seconds, 1, 600) ?? ctx.config.profile_seconds;
    const { suite } = suiteFromFlags({ suite: values.suite }, ctx);
    const test = findTest(suite, testName);
    const threads = integerFlag('--threads', values.threads, 1, 100_000) ?? test.threads[0]!;
    const store = await openStateStore(ctx);
    try {
      const baseline = values.baseline ?? (await defaultBaseline(candidate, store, ctx));
      const lock = await waitForHostLock(ctx.config.host_lock, {
        command: 'profile',
        holds: `a profile (${JSON.stringify(baseline)} against ${JSON.stringify(candidate)})`,
        signal: ctx.signal,
        log: ctx.log,
      });
      try {
        const outcome = await runProfile(
          { baseline, candidate, suite, test, threads, seconds, mode },
          {
            settings: compareSettings(ctx.config, ctx.env),
            store,
            log: ctx.log,
            upstreams: ctx.upstreams,
            signal: ctx.signal,
          },
        );
        const report = profileReport(outcome, baseline, candidate, `${test.name}.t${threads}`);
        ctx.stdout(renderProfileText(report));
        const files = await writeProfileFiles(ctx.config.state_dir, outcome.id, report);
        ctx.stdout(`\nprofile ${outcome.id}\nflame graph: ${files.svg}\npage: ${files.html}\n`);
      } finally {
        lock.release();
      }
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};

function profilerMode(text: string): ProfilingMode {
  if (!isProfilingMode(text) || text === 'off')
    throw new UsageError(
      `--profiler ${JSON.stringify(text)}: expected ${profilingModes.filter((m) => m !== 'off').join(', ')} ` +
        '(the profiling option is off: give --profiler auto to profile anyway)',
    );
  return text;
}

function findTest(suite: Suite, name: string): SuiteTest {
  const test = suite.tests.find((t) => t.name === name);
  if (test === undefined)
    throw new UsageError(
      `test ${JSON.stringify(name)} is not in suite ${JSON.stringify(suite.name)}: ` +
        `use one of ${suite.tests.map((t) => t.name).join(', ')}`,
    );
  return test;
}

/** The last good release below the candidate, as a check would compare it with. */
async function defaultBaseline(
  candidate: string,
  store: Awaited<ReturnType<typeof openStateStore>>,
  ctx: CommandContext,
): Promise<string> {
  if (ctx.config.targets[candidate] !== undefined)
    throw new UsageError(`${JSON.stringify(candidate)} is a configured target, not a release: give --baseline`);
  const release = await findRelease(candidate.split('@')[0]!, undefined, store, ctx, false);
  const good = await lastGoodBelow(store, release);
  if (good === undefined)
    throw new UsageError(`no release below ${JSON.stringify(candidate)} is known to be good: give --baseline`);
  return good.release.tag;
}
