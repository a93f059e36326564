import { waitForHostLock } from '../daemon/index.js';
import {
  bisectLanes,
  bisectMessage,
  bisectRelease,
  type BisectLane,
  NoRegressedTestsError,
  regressedTests,
} from '../bisect/index.js';
import { buildSettings } from '../releases/index.js';
import { checkSettings, deliverPending, lastGoodBelow, ReleaseNotBuiltError } from '../checks/index.js';
import { releaseInstallDir } from '../session/index.js';
import { narrowSuite } from '../suite/index.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_FAILED, EXIT_OK } from './exit-codes.js';
import { findRelease } from './find-release.js';
import { checkUpstreamFiles } from './check-references.js';
import { openStateStore } from './open-state-store.js';
import { integerFlag, parseCommandArgs } from './parse-args.js';
import { SUITE_FLAGS, SUITE_FLAGS_HELP, suiteFromFlags } from './suite-flags.js';
import { UsageError } from './usage-error.js';
import { bisectResultText, bisectStepLine } from './bisect-text.js';
import type { ReleaseRecord, Store } from '../store/index.js';

const HELP = `Usage: qpswatch bisect TAG [TEST...] [--good TAG] [options]

Finds the commit that made TAG slower: takes the commits after the last good release up to TAG (first-parent
history), builds midpoints with TAG's upstream build profile (the compiler cache stays warm) and judges each on
only the regressed tests. On the QPS lane a step is a paired session of the good release (B) against the midpoint
(C); on the instructions lane it is one counted run per test of the midpoint, against the good release's stored
counts (counts repeat to about 0.1%, so one run decides; the good release is counted once when none are stored).
A regression there means bad, every test ok or improved means good. It names the first bad commit with its subject
and author, in about log2(n) builds for n commits. A commit that does not build is skipped as git bisect skip
does (a neighbour is built instead); an undecided step gets a second session with twice the pairs, and if that
cannot decide either, bisect stops and says so. The result is stored (shown by status); the midpoint builds are
pruned when it ends, never a release's build. The good release and TAG must be built (qpswatch build TAG).

TEST... are suite test names (update-index, or update-index.t1); without them, the tests that regressed in TAG's
newest check. --lane auto (the default) bisects on instructions when that check's instructions lane found
regressions among them (those tests, without TEST...), else on QPS.

Options:
  --good TAG           the good end (default: the last good release below TAG)
  --lane LANE          what judges a step: auto (default), qps or instructions (1-thread tests, instruction_counter)
  --upstream NAME      the upstream, when several have TAG
  --all-parents        walk every parent's commits, not only first parents (merged branches' own commits)
  --max-builds N       builds at most (default: bisect_max_builds, 12); --max-hours H likewise (bisect_max_hours)
  --json               print the stored bisection as JSON instead of text
  --email              send the result as the follow-up email a bisect: true run sends (email_to), through the outbox
${SUITE_FLAGS_HELP}

Commit subjects and author names are printed as data: control characters escaped, never run by a shell.
One benchmark or build at a time on a host (host_lock): bisect holds the host from start to end.
Exit codes: 0 the first bad commit was named; 1 it could not be (a commit that did not build hides it, an
undecided step, the budget, or a failure on the way); 2 bad input.
`;

const BISECT_FLAGS = {
  ...SUITE_FLAGS,
  good: { type: 'string' },
  lane: { type: 'string' },
  upstream: { type: 'string' },
  'all-parents': { type: 'boolean' },
  'max-builds': { type: 'string' },
  'max-hours': { type: 'string' },
  json: { type: 'boolean' },
  email: { type: 'boolean' },
} as const;

export const bisectCommand: Command = {
  name: 'bisect',
  summary: 'find the commit that made a regressed release slower (builds midpoints, runs the regressed tests)',
  help: HELP,
  flags: BISECT_FLAGS,
  positionals: true,
  examples: [
    { does: 'Find the commit that made update-index slower', line: 'qpswatch bisect mariadb-10.11.9 update-index' },
    {
      does: 'The same, each commit judged by its instructions per query',
      line: 'qpswatch bisect mariadb-10.11.9 point-query --lane instructions',
    },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, BISECT_FLAGS, HELP, true);
    const [tag, ...tests] = positionals;
    if (tag === undefined) throw new UsageError('bisect needs the regressed TAG', HELP);
    const { suite, shape } = suiteFromFlags(values, ctx);
    if (shape.design === 'runs') throw new UsageError('bisect runs paired sessions: leave out --design runs', HELP);
    const maxBuilds = integerFlag('--max-builds', values['max-builds'], 1, 100) ?? ctx.config.bisect_max_builds;
    const maxHours = hoursFlag(values['max-hours']) ?? ctx.config.bisect_max_hours;
    const store = await openStateStore(ctx);
    try {
      const release = await findRelease(tag, values.upstream, store, ctx, true);
      const upstream = ctx.upstreams.find((u) => u.name === release.upstream)!;
      if (upstream.kind !== 'git')
        throw new UsageError(
          `bisect: upstream ${upstream.name} is a ${upstream.kind} index: only a git upstream has commits`,
        );
      await checkUpstreamFiles(upstream, ctx.config);
      const good = await goodEnd(values.good, release, store, ctx);
      // Every step's session runs the good end: its install folder is checked before the first build, and one the
      // store names elsewhere is refused (StoredInstallPathError), as is a good end that was never built.
      if ((await releaseInstallDir(good, upstream, { store, stateDir: ctx.config.state_dir })) === undefined)
        throw new ReleaseNotBuiltError(good.tag);
      const { lane, names } = await laneAndTests(laneFlag(values.lane), tests, release, store);
      if (names.length === 0) throw new NoRegressedTestsError(release.tag);
      const narrowed = narrowSuite(suite, names);
      const lock = await waitForHostLock(ctx.config.host_lock, {
        command: 'bisect',
        holds: `a bisection of ${JSON.stringify(release.tag)}`,
        signal: ctx.signal,
        log: ctx.log,
      });
      try {
        const json = values.json === true;
        const settings = checkSettings(ctx.config, ctx.env);
        const email = values.email === true;
        const result = await bisectRelease(
          {
            release,
            good,
            tests: names,
            suite: narrowed,
            firstParent: values['all-parents'] !== true,
            lane,
            maxBuilds,
            maxHours,
            ...shape,
          },
          {
            settings,
            buildSettings: buildSettings(ctx.config),
            upstream,
            store,
            log: ctx.log,
            upstreams: ctx.upstreams,
            signal: ctx.signal,
            ...(json ? {} : { onStep: (step, n, count) => ctx.stdout(bisectStepLine(step, n, count)) }),
          },
          email
            ? (bisection) => bisectMessage({ alerts: settings.alerts, upstream, release, good, bisection })
            : undefined,
        );
        if (email) await deliverPending({ mail: settings.mail, store, log: ctx.log, signal: ctx.signal });
        ctx.stdout(json ? JSON.stringify(result.record, null, 2) + '\n' : bisectResultText(result, release, good));
        return result.record.outcome === 'found' ? EXIT_OK : EXIT_FAILED;
      } finally {
        lock.release();
      }
    } finally {
      await store.close();
    }
  },
};

function laneFlag(text: string | undefined): BisectLane | 'auto' {
  if (text === undefined || text === 'auto') return 'auto';
  if ((bisectLanes as readonly string[]).includes(text)) return text as BisectLane;
  throw new UsageError(`--lane ${JSON.stringify(text)}: expected auto, ${bisectLanes.join(' or ')}`);
}

/**
 * The lane that judges the steps and the tests it judges: named tests stay; auto takes the instructions lane when
 * TAG's newest check found instructions regressions (among the named tests, or those tests when none are named).
 */
async function laneAndTests(
  flag: BisectLane | 'auto',
  named: readonly string[],
  release: ReleaseRecord,
  store: Store,
): Promise<{ lane: BisectLane; names: string[] }> {
  const grew = flag === 'qps' ? [] : await regressedTests(store, release, 'instructions');
  const inGrew = named.length > 0 && named.every((t) => grew.includes(t.replace(/\.t\d+$/, '')));
  const lane: BisectLane =
    flag !== 'auto' ? flag : inGrew || (named.length === 0 && grew.length > 0) ? 'instructions' : 'qps';
  if (named.length > 0) return { lane, names: [...named] };
  if (lane === 'instructions' && grew.length > 0) return { lane, names: grew };
  return { lane, names: await regressedTests(store, release) };
}

/** --good TAG, else the last good release below the tag. */
async function goodEnd(
  goodTag: string | undefined,
  release: ReleaseRecord,
  store: Store,
  ctx: CommandContext,
): Promise<ReleaseRecord> {
  if (goodTag !== undefined) return findRelease(goodTag, release.upstream, store, ctx, false);
  const good = await lastGoodBelow(store, release);
  if (good === undefined)
    throw new UsageError(
      `bisect: no release below ${JSON.stringify(release.tag)} is good yet: name the good end with --good TAG`,
    );
  return good.release;
}

function hoursFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 168)
    throw new UsageError(`--max-hours ${JSON.stringify(text)}: expected hours, greater than 0 and at most 168`);
  return n;
}
