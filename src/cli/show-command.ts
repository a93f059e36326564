import { compareSettings, storedProfileReport } from '../session/index.js';
import { storedInstructionsView, storedSessionView, type StoredSessionView } from '../views/index.js';
import { parseReportFormat, renderComparison } from '../report/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { relativeTime } from './relative-time.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch show ID [--format FORMAT]

Prints session ID (\`qpswatch sessions\` lists them) again, exactly as \`compare\` printed it at its end:
relative QPS per test with its interval, the verdicts, the host resources per operation and the
instructions lane (its table, and per test the functions that grew), in every format. A check's verdicts
are the ones it stored; a plain compare is judged again from its samples with the settings it ran with
(the instructions lane with today's instructions_threshold).
Read from the store alone: no server is started and nothing is written.

A session that failed, was interrupted or is still running was never judged: its stored samples are shown
without verdicts, and one line on stderr says so.

Options:
  --format FORMAT   text (default), md, csv, json or html (one self-contained page, every name escaped)
Exit codes: 0 printed; 1 the store could not be read; 2 bad input (no such session, an unknown format).
`;

const FLAGS = { format: { type: 'string' } } as const;

export const showCommand: Command = {
  name: 'show',
  summary: 'print a past session again (text, md, csv, json or html), from the store',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [
    { does: 'Session 12 again, as compare printed it', line: 'qpswatch show 12' },
    { does: 'As one web page', line: 'qpswatch show 12 --format html > session-12.html' },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    const id = sessionId(positionals);
    const format = parseReportFormat(values.format ?? 'text');
    const store = await openStateStore(ctx, { readonly: true });
    try {
      const settings = compareSettings(ctx.config);
      const shown = await storedSessionView(store, id, settings.verdicts);
      const note = unjudgedNote(shown, new Date());
      if (note !== undefined) ctx.log.warn({ sessionId: id, state: shown.session.state }, note);
      // A check's session shows the profile it took of its worst regression: the flame graph in --format html.
      const profile = await store.profileOfSession(id);
      // The instructions lane, as compare printed it, in every format.
      const lane = await storedInstructionsView(store, id, settings.instructions.verdicts);
      const view = lane !== undefined ? { ...shown.view, instructions: lane } : shown.view;
      ctx.stdout(
        renderComparison(view, format, profile !== undefined ? storedProfileReport(profile) : undefined, {
          color: ctx.stdoutColor,
        }),
      );
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};

function sessionId(positionals: readonly string[]): number {
  if (positionals.length === 0) throw new UsageError('show needs a session id: `qpswatch sessions` lists them', HELP);
  if (positionals.length > 1)
    throw new UsageError(
      `show takes one session id, got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(' ')}`,
      HELP,
    );
  const text = positionals[0]!;
  const id = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(id) || id < 1)
    throw new UsageError(
      `session id ${JSON.stringify(text)} is not a session number: \`qpswatch sessions\` lists them`,
    );
  return id;
}

/** The one line that says why a session's report has no verdicts; undefined for a judged session. */
export function unjudgedNote(
  shown: Pick<StoredSessionView, 'session' | 'view' | 'judged'>,
  now: Date,
): string | undefined {
  const { session } = shown;
  if (shown.judged !== 'none') return undefined;
  const samples = shown.view.tests.reduce((n, t) => n + t.baseline.samples + t.candidate.samples, 0);
  const measured =
    samples === 0
      ? 'no test was measured on both sides'
      : `the ${samples} samples of the tests measured on both sides are shown`;
  const what = `${measured}, not judged`;
  const reason = session.error !== null ? ` (${JSON.stringify(session.error)})` : '';
  if (session.state === 'running')
    return (
      `session ${session.id} is still running (started ` +
      `${relativeTime(session.startedAt, now)}, pid ${session.pid}): ${what}`
    );
  return `session ${session.id} ${session.state === 'failed' ? 'failed' : 'was interrupted'}${reason}: ${what}`;
}
