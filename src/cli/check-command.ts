import { waitForHostLock } from '../daemon/index.js';
import { checkStanding } from '../analysis/index.js';
import { testLabel, type InstructionVerdict, type WorkProgress } from '../model/index.js';
import { bisectNewEvents, eventBisectDeps } from '../bisect/index.js';
import { buildSettings } from '../releases/index.js';
import {
  checkAndConfirm,
  checkSettings,
  suspicionText,
  type CheckResult,
  type ConfirmedCheck,
} from '../checks/index.js';
import { bisectionSummary, parseReportFormat, renderComparison, type ReportFormat } from '../report/index.js';
import { releaseInstallDir } from '../session/index.js';
import type { ReleaseRecord, ReleaseStore } from '../store/index.js';
import { checkUpstreamFiles } from './check-references.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { findRelease } from './find-release.js';
import { openStateStore } from './open-state-store.js';
import { progressSink } from './progress-display.js';
import { parseCommandArgs } from './parse-args.js';
import { SUITE_FLAGS, SUITE_FLAGS_HELP, suiteFromFlags } from './suite-flags.js';
import { UsageError } from './usage-error.js';
import { undecidedTests } from './verdict-summary.js';

const HELP = `Usage: qpswatch check TAG [--upstream NAME] [--against-base] [--no-confirm] [options]

Checks one built release against the last good release of its upstream: one comparison session (as
\`qpswatch compare\` runs it), a verdict per test, then:
  - a regression on a test with no open regression event opens one, and one email names them all;
  - a test of an open event that is ok again closes it as fixed, with one recovery email;
  - a regression that is already open goes on quietly (never emailed twice).
Everything is stored in one step with the session; the outbox is then sent (see \`qpswatch outbox\`).
The release becomes last good only when every test is ok or improvement. A slower test (significantly
slower, not shown past the threshold) or an unstable one (the session could not tell) opens no event and
sends no email, but leaves the check inconclusive: the release is not last good until a person accepts
it (\`qpswatch accept TAG\`). The first release checked in a series has nothing to be compared with: it
becomes the first last good without a session.

Drift: each test's relative QPS against the series' base is chained through the checks back to it. When a
chain falls under the threshold, drift is suspected: check says so and runs a confirming session of TAG
directly against the base at once. A test that regresses there is a confirmed drift (its event and email
are those of a regression against the base). The base is the upstream's base:, else its oldest checked
release. A check against the base counts for last good like any check.

Options:
  --upstream NAME      the upstream, when several have this tag
  --against-base       judge TAG directly against its series' base instead of the last good
  --no-confirm         when drift is suspected, say so but run no confirming session
${SUITE_FLAGS_HELP}
  --format FORMAT      text (default), md, csv, json or html

One benchmark or build at a time on a host (host_lock): a check waits while a compare, another check or
a build runs, and stops at once when a daemon holds the host.

With bisect: true, a check that opens a regression event bisects TAG for the regressed tests right after
(as \`qpswatch bisect\` does, within bisect_max_builds and bisect_max_hours): the result is stored with the
event and sent as one follow-up email; a bisection that fails is stored as failed and the check stands.

Progress goes to stderr as log lines; the report goes to stdout.
Exit codes: 0 checked (whatever the verdicts); 1 failed on the way; 2 bad input (unknown or unbuilt tag, or
a daemon holds the host).
`;

const FLAGS = {
  upstream: { type: 'string' },
  format: { type: 'string' },
  'against-base': { type: 'boolean' },
  'no-confirm': { type: 'boolean' },
  ...SUITE_FLAGS,
} as const;

export const checkCommand: Command = {
  name: 'check',
  summary: 'benchmark a built release against the last good one (or the base); verdicts, events, drift, email',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [
    { does: 'Check a built release against the last good one', line: 'qpswatch check mariadb-10.11.9' },
    { does: "Against the series' base instead", line: 'qpswatch check mariadb-10.11.9 --against-base' },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    if (values['against-base'] === true && values['no-confirm'] === true)
      throw new UsageError(
        '--no-confirm has no effect with --against-base, which is a direct session against the base already: drop one',
        HELP,
      );
    if (positionals.length !== 1) throw new UsageError('check takes one TAG', HELP);
    const format = parseReportFormat(values.format ?? 'text');
    const { suite, rounds, shape } = suiteFromFlags(values, ctx);
    const lock = await waitForHostLock(ctx.config.host_lock, {
      command: 'check',
      holds: `the check of ${JSON.stringify(positionals[0])}`,
      signal: ctx.signal,
      log: ctx.log,
    });
    const store = await openStateStore(ctx).catch((err: unknown) => {
      lock.release();
      throw err;
    });
    const sink = progressSink({ terminal: ctx.statusLine, stateDir: ctx.config.state_dir, command: 'check' });
    try {
      const release = await findRelease(positionals[0]!, values.upstream, store, ctx, false);
      await checkBeforeUse(release, store, ctx);
      const text = format === 'text';
      const deps = {
        settings: checkSettings(ctx.config, ctx.env),
        store,
        log: ctx.log,
        upstreams: ctx.upstreams,
        signal: ctx.signal,
        onWorkProgress: (work: WorkProgress) => sink.report(work),
      };
      const done = await checkAndConfirm(
        { release, suite, rounds, ...shape, ...(values['against-base'] === true ? { againstBase: true } : {}) },
        deps,
        {
          confirm: values['no-confirm'] !== true,
          // Said before the confirming session starts, which takes a whole session budget.
          onSuspected: (result, suspicions, base) => {
            sink.close();
            printResult(result, format, ctx.stdout);
            if (text) for (const s of suspicions) ctx.stdout(`drift suspected: ${suspicionText(s, base)}\n`);
          },
        },
      );
      sink.close();
      if (done.suspicions.length === 0) printResult(done.result, format, ctx.stdout);
      // One document per run in json, csv and html: the confirming session's own is `qpswatch show SESSION`.
      if (done.confirmation !== undefined && (text || format === 'md'))
        printResult(done.confirmation, format, ctx.stdout);
      else if (done.confirmation !== undefined)
        ctx.log.info(
          { sessionId: done.confirmation.sessionId },
          `the confirming session against the base is session ` +
            `${done.confirmation.sessionId}: qpswatch show ` +
            `${done.confirmation.sessionId} --format ${format}`,
        );
      const drift = driftLine(done);
      if (text && drift !== '') ctx.stdout(`${drift}\n`);
      const bisection = await bisectNewEvents(
        done.result,
        { suite, ...shape },
        eventBisectDeps(deps, buildSettings(ctx.config)),
      );
      if (text && bisection !== undefined) ctx.stdout(`bisect: ${bisectionSummary(bisection)}\n`);
    } finally {
      sink.close();
      try {
        await store.close();
      } finally {
        lock.release();
      }
    }
    return EXIT_OK;
  },
};

/**
 * What a check will run, checked before anything starts: the upstream's server profile (and with bisect: true its
 * build profile and patches, for the bisection a regression starts), and the release's install folder, derived from
 * state_dir and its build key; a stored one that differs is refused. An unbuilt release is checkRelease's to name.
 */
async function checkBeforeUse(release: ReleaseRecord, store: ReleaseStore, ctx: CommandContext): Promise<void> {
  const upstream = ctx.upstreams.find((u) => u.name === release.upstream);
  if (upstream === undefined) return;
  await checkUpstreamFiles(upstream, ctx.config, { builds: ctx.config.bisect });
  await releaseInstallDir(release, upstream, { store, stateDir: ctx.config.state_dir });
}

/** The comparison of a check's session and, in text, its outcome line. */
function printResult(result: CheckResult, format: ReportFormat, stdout: (text: string) => void): void {
  // The instructions lane, with the release against the series' base, is part of the report in every format.
  if (result.kind === 'checked')
    stdout(
      renderComparison(
        result.instructions !== undefined ? { ...result.view, instructions: result.instructions } : result.view,
        format,
      ),
    );
  if (format === 'text' || result.kind === 'first') stdout(`${outcomeLine(result)}\n`);
}

/**
 * What the chain against the base came to: nothing when no drift was suspected and the check was not against the
 * base; else the confirmed drifts, or that the direct session found none, or why no session confirmed them.
 */
export function driftLine(
  done: Pick<ConfirmedCheck, 'result' | 'suspicions' | 'confirmation' | 'unconfirmed' | 'drifts' | 'base'>,
): string {
  const direct =
    done.confirmation ??
    (done.result.kind === 'checked' && done.result.against !== 'last good' ? done.result : undefined);
  if (done.unconfirmed !== undefined) return `drift ${done.unconfirmed}`;
  if (direct === undefined) return '';
  if (done.drifts.length === 0)
    return done.confirmation !== undefined
      ? `drift not confirmed: no test regressed against the base ${direct.baseline.tag}`
      : '';
  return (
    `confirmed drift against the base ${direct.baseline.tag}: ` +
    `${done.drifts.map((v) => `${testLabel(v)} ${v.relativeQps.toFixed(2)}`).join(', ')}`
  );
}

export function outcomeLine(result: CheckResult): string {
  if (result.kind === 'first')
    return (
      `${result.release.tag} is the first release checked in ` +
      `${result.release.upstream}: it is now the last good release`
    );
  const { plan } = result;
  const parts = [
    `${result.release.tag} against ` +
      `${result.against === 'last good' ? '' : 'the base '}${result.baseline.tag}: ` +
      `${checkStanding(result.check)}`,
    plan.opened.length > 0
      ? `new regressions: ${plan.opened.map((v) => `${testLabel(v)} ${v.relativeQps.toFixed(2)}`).join(', ')}`
      : '',
    plan.continuing.length > 0 ? `still regressed: ${plan.continuing.map((v) => `${testLabel(v)}`).join(', ')}` : '',
    plan.fixed.length > 0 ? `recovered: ${plan.fixed.map((e) => `${testLabel(e)}`).join(', ')}` : '',
    instructionsText(result),
    `${result.messagesQueued} email(s) queued`,
    notLastGoodText(result),
  ];
  return parts.filter((p) => p !== '').join('; ');
}

/**
 * Why a check without a regression did not make its release last good, and what to do: a slower test is a real drop
 * within the margin (accept the release if it is the new normal); an undecided one needs a larger budget.
 */
/** The instructions lane's tests that grew past the threshold: against the check's baseline, and the base. */
function instructionsText(result: Extract<CheckResult, { kind: 'checked' }>): string {
  const grown = (verdicts: readonly InstructionVerdict[]) =>
    verdicts.filter((v) => v.kind === 'regression').map((v) => `${testLabel(v)} ${v.ratio.toFixed(4)}`);
  const lane = result.instructions;
  const last = grown(lane?.verdicts ?? []);
  const base = grown(lane?.againstBase?.verdicts ?? []);
  return [
    last.length > 0 ? `instructions regressions: ${last.join(', ')}` : '',
    base.length > 0 ? `instructions drift against the base ${lane!.againstBase!.tag}: ${base.join(', ')}` : '',
  ]
    .filter((p) => p !== '')
    .join('; ');
}

function notLastGoodText(result: Extract<CheckResult, { kind: 'checked' }>): string {
  if (!result.check.conclusive && result.instructions?.verdicts.some((v) => v.kind === 'regression') === true)
    return `not last good: an instructions regression; qpswatch accept ${result.release.tag} if it is the new normal`;
  const why = undecidedTests(result.verdicts);
  if (result.check.conclusive || why === '') return '';
  return (
    `not last good: ${why}; qpswatch calibrate says what budget would ` +
    `decide an undecided test (budget_minutes, or the budget_minutes of the ` +
    `upstream), ` +
    `and qpswatch accept ${result.release.tag} makes this release last good if a slower test is the new normal`
  );
}
