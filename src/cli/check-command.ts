import { waitForHostLock } from '../daemon/index.js';
import { checkStanding } from '../analysis/index.js';
import { checkRelease, checkSettings, type CheckResult } from '../pipeline/index.js';
import { parseReportFormat, renderComparison } from '../report/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { findRelease } from './find-release.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { SUITE_FLAGS, SUITE_FLAGS_HELP, suiteFromFlags } from './suite-flags.js';
import { UsageError } from './usage-error.js';
import { undecidedTests } from './verdict-summary.js';

const HELP = `Usage: qpswatch check TAG [--upstream NAME] [options]

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

Options:
  --upstream NAME      the upstream, when several have this tag
${SUITE_FLAGS_HELP}
  --format FORMAT      text (default), md, csv, json or html

One benchmark or build at a time on a host (host_lock): a check waits while a compare, another check or
a build runs, and stops at once when a daemon holds the host.

Progress goes to stderr as log lines; the report goes to stdout.
Exit codes: 0 checked (whatever the verdicts); 1 failed on the way; 2 bad input (unknown or unbuilt tag, or
a daemon holds the host).
`;

export const checkCommand: Command = {
  name: 'check',
  summary: 'benchmark a built release against the last good one; verdicts, events, email',
  help: HELP,
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { upstream: { type: 'string' }, format: { type: 'string' }, ...SUITE_FLAGS }, HELP, true);
    if (positionals.length !== 1) throw new UsageError('check takes one TAG', HELP);
    const format = parseReportFormat(values.format ?? 'text');
    const { suite, rounds, shape } = suiteFromFlags(values, ctx);
    const lock = await waitForHostLock(ctx.config.host_lock, { command: 'check', holds: `the check of ${JSON.stringify(positionals[0])}`, signal: ctx.signal, log: ctx.log });
    const store = await openStateStore(ctx).catch((err: unknown) => {
      lock.release();
      throw err;
    });
    try {
      const release = await findRelease(positionals[0]!, values.upstream, store, ctx, false);
      const result = await checkRelease({ release, suite, rounds, ...shape }, { settings: checkSettings(ctx.config, ctx.env), store, log: ctx.log, upstreams: ctx.upstreams, signal: ctx.signal });
      if (result.kind === 'checked') ctx.stdout(renderComparison(result.view, format));
      if (format === 'text' || result.kind === 'first') ctx.stdout(`${outcomeLine(result)}\n`);
    } finally {
      try {
        await store.close();
      } finally {
        lock.release();
      }
    }
    return EXIT_OK;
  },
};

export function outcomeLine(result: CheckResult): string {
  if (result.kind === 'first') return `${result.release.tag} is the first release checked in ${result.release.upstream}: it is now the last good release`;
  const { plan } = result;
  const parts = [
    `${result.release.tag} against ${result.lastGood.release.tag}: ${checkStanding(result.check)}`,
    plan.opened.length > 0 ? `new regressions: ${plan.opened.map((v) => `${v.test}.t${v.threads} ${v.relativeQps.toFixed(2)}`).join(', ')}` : '',
    plan.continuing.length > 0 ? `still regressed: ${plan.continuing.map((v) => `${v.test}.t${v.threads}`).join(', ')}` : '',
    plan.fixed.length > 0 ? `recovered: ${plan.fixed.map((e) => `${e.test}.t${e.threads}`).join(', ')}` : '',
    `${result.messagesQueued} email(s) queued`,
    notLastGoodText(result),
  ];
  return parts.filter((p) => p !== '').join('; ');
}

/**
 * Why a check without a regression did not make its release last good, and what to do: a slower test is a real drop
 * within the margin (accept the release if it is the new normal); an undecided one needs a larger budget.
 */
function notLastGoodText(result: Extract<CheckResult, { kind: 'checked' }>): string {
  const why = undecidedTests(result.verdicts);
  if (result.check.conclusive || why === '') return '';
  return (
    `not last good: ${why}; qpswatch calibrate says what budget would decide an undecided test (budget_minutes, or the budget_minutes of the upstream), ` +
    `and qpswatch accept ${result.release.tag} makes this release last good if a slower test is the new normal`
  );
}
