import { z } from 'zod';
import { showValue } from '../config/index.js';
import { testLabel } from '../model/index.js';
import type {
  CheckStore,
  EventRecord,
  InstructionEventRecord,
  ReleaseRecord,
  TriageInput,
  TriageResult,
} from '../store/index.js';
import type { Command, Example } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { findRelease } from './find-release.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { UsageError } from './usage-error.js';

const COMMON = `  --by NAME         who says so (default: $SUDO_USER, $USER or $LOGNAME); one line, at most 100
                    characters
  --upstream NAME   the upstream, when several have this tag
Exit codes: 0 recorded; 2 bad input (unknown tag, nothing to act on); nothing is changed on a bad input.
`;

const ACCEPT_HELP = `Usage: qpswatch accept TAG [--reason TEXT] [--by NAME] [--upstream NAME]

The new normal: TAG becomes the last good release of its upstream, so later releases are compared with it.
Open regressions of the upstream up to TAG are closed as accepted (no recovery email will follow).
Stored with who, why and when.

Options:
  --reason TEXT     why (e.g. "durability fix: slower by design"); at most 1000 characters
${COMMON}`;

const ACK_HELP = `Usage: qpswatch ack TAG [TEST] [--reason TEXT] [--by NAME] [--upstream NAME]

Known: the open regressions that started with TAG (or only TEST, e.g. update-index or update-index.t1) keep
being reported, but nobody is emailed about them again, recovery included. Stored with who, why and when.

Options:
  --reason TEXT     why (e.g. "upstream bug MDEV-12345"); at most 1000 characters
${COMMON}`;

const INVALID_HELP = `Usage: qpswatch invalid TAG [--reason TEXT] [--by NAME] [--upstream NAME]

Noise or infrastructure: the checks of TAG stop counting (not for last good, not in reports), the regressions
they opened are closed as invalid, and TAG is queued to be checked again. Stored with who, why and when.

Options:
  --reason TEXT     why (e.g. "backup ran during the session"); at most 1000 characters
${COMMON}`;

type Action = TriageInput['action'];

const FLAGS = { reason: { type: 'string' }, by: { type: 'string' }, upstream: { type: 'string' } } as const;

function triageCommand(action: Action, summary: string, help: string, examples: readonly Example[]): Command {
  return {
    name: action,
    summary,
    help,
    flags: FLAGS,
    positionals: true,
    examples,
    needsConfig: true,
    async run(args, ctx) {
      const { values, positionals } = parseCommandArgs(args, FLAGS, help, true);
      const most = action === 'ack' ? 2 : 1;
      if (positionals.length < 1 || positionals.length > most)
        throw new UsageError(`${action} takes ${action === 'ack' ? 'TAG and an optional TEST' : 'one TAG'}`, help);
      const who = checkedBy(
        values.by ?? ctx.env['SUDO_USER'] ?? ctx.env['USER'] ?? ctx.env['LOGNAME'] ?? 'unknown',
        values.by !== undefined,
      );
      const reason = checkedReason(values.reason ?? '');
      const store = await openStateStore(ctx);
      try {
        const release = await findRelease(positionals[0]!, values.upstream, store, ctx, false);
        const input: TriageInput = { releaseId: release.id, action, who, reason };
        const test = positionals[1] === undefined ? undefined : parseTestName(positionals[1]);
        if (test !== undefined) input.test = test;
        await checkSomethingToDo(store, release, input);
        const result = await store.triage(input);
        ctx.stdout(`${summaryLine(release, result)}\n`);
        return EXIT_OK;
      } finally {
        await store.close();
      }
    },
  };
}

export const MAX_BY_LENGTH = 100;
export const MAX_REASON_LENGTH = 1000;

// Control characters would break the one-line summaries and log lines the triage shows up in; a reason may hold
// newlines.
const CONTROL = /[\u0000-\u001f\u007f]/;
const BySchema = z
  .string()
  .refine((t) => t.trim() !== '', { error: 'is empty: name who says so, e.g. --by ana' })
  .refine((t) => t.length <= MAX_BY_LENGTH, {
    error: `is longer than ${MAX_BY_LENGTH} characters: give a name, e.g. --by ana`,
  })
  .refine((t) => !CONTROL.test(t), {
    error: 'holds a control character or a line break: give a name on one line, e.g. --by ana',
  });
const ReasonSchema = z
  .string()
  .refine((t) => t.length <= MAX_REASON_LENGTH, {
    error:
      `is longer than ${MAX_REASON_LENGTH} characters: say why in short and ` +
      `link to the details (e.g. "MDEV-12345")`,
  })
  .refine((t) => !CONTROL.test(t.replace(/\r?\n/g, ' ')), { error: 'holds a control character: write plain text' });

/** Who says so, checked at the edge: a bad --by (or $USER) is a usage error (exit 2), never a store failure. */
export function checkedBy(who: string, fromFlag: boolean): string {
  const parsed = BySchema.safeParse(who);
  if (parsed.success) return parsed.data;
  throw new UsageError(
    `${fromFlag ? '--by' : 'the user name from $SUDO_USER, $USER or $LOGNAME'} ` +
      `${showValue(who)} ${parsed.error.issues[0]!.message}`,
  );
}

export function checkedReason(reason: string): string {
  const parsed = ReasonSchema.safeParse(reason);
  if (parsed.success) return parsed.data;
  throw new UsageError(`--reason (${reason.length} characters) ${parsed.error.issues[0]!.message}`);
}

/** "update-index.t1" names one thread count; "update-index" every thread count of the test. */
export function parseTestName(text: string): { test: string; threads?: number } {
  const m = /^(.+)\.t(\d{1,4})$/.exec(text);
  if (m !== null) return { test: m[1]!, threads: Number(m[2]) };
  if (text.trim() === '') throw new UsageError('TEST is empty: name a test such as update-index or update-index.t1');
  return { test: text };
}

/** A triage that would change nothing is refused, so a typo in a test name does not pass silently. */
async function checkSomethingToDo(store: CheckStore, release: ReleaseRecord, input: TriageInput): Promise<void> {
  const name = JSON.stringify(release.tag);
  if (input.action === 'ack') {
    // Either lane's events: an instructions regression is acknowledged like a QPS one.
    const query = { upstream: release.upstream, state: 'open' as const };
    const open = [
      ...(await store.listEvents(query)).map(labelled),
      ...(await store.listInstructionEvents(query)).map(instructionLabelled),
    ].filter((e) => e.releaseId === release.id);
    const matching = open.filter(
      (e) =>
        input.test === undefined ||
        (e.test === input.test.test && (input.test.threads === undefined || e.threads === input.test.threads)),
    );
    if (matching.length > 0) return;
    if (open.length === 0)
      throw new UsageError(
        `${name} has no open regression to acknowledge: see \`qpswatch report --series ${release.upstream}\``,
      );
    throw new UsageError(
      `${name} has no open regression on ` +
        `${JSON.stringify(positionalTest(input))}: open ones are ` +
        `${open.map((e) => e.label).join(', ')}`,
    );
  }
  if (
    input.action === 'invalid' &&
    !(await store.listChecks(release.upstream)).some((c) => c.releaseId === release.id && !c.invalid)
  ) {
    throw new UsageError(`${name} has no valid check to mark invalid: nothing was changed`);
  }
}

function positionalTest(input: TriageInput): string {
  return input.test === undefined
    ? ''
    : input.test.threads === undefined
      ? input.test.test
      : `${testLabel({ test: input.test.test, threads: input.test.threads })}`;
}

const eventLabel = (e: EventRecord): string => `${testLabel(e)}${e.kind === 'drift' ? ' (drift)' : ''}`;
const instructionLabel = (e: InstructionEventRecord): string =>
  `${testLabel(e)} (instructions${e.kind === 'drift' ? ' drift' : ''})`;
const labelled = (e: EventRecord) => ({ ...e, label: eventLabel(e) });
const instructionLabelled = (e: InstructionEventRecord) => ({ ...e, label: instructionLabel(e) });

function summaryLine(release: ReleaseRecord, result: TriageResult): string {
  const t = result.triage;
  const by = `by ${t.who}${t.reason !== '' ? `: ${t.reason}` : ''}`;
  const events = [...result.events.map(eventLabel), ...result.instructionEvents.map(instructionLabel)].join(', ');
  const closed = result.events.length + result.instructionEvents.length;
  switch (t.action) {
    case 'accept':
      return (
        `accepted ${release.tag} as the last good release of ${release.upstream} ` +
        `(${by}); ${closed} open regression(s) ` +
        `closed${events ? `: ${events}` : ''}`
      );
    case 'ack':
      return `acknowledged ${events} of ${release.tag} (${by}): still reported, no more email`;
    default:
      return (
        `marked the ${result.invalidatedChecks} check(s) of ${release.tag} ` +
        `invalid (${by}); ${closed} regression(s) ` +
        `closed${events ? `: ${events}` : ''}; queued to be checked again`
      );
  }
}

export const acceptCommand = triageCommand(
  'accept',
  'accept a release as the new normal: it becomes last good',
  ACCEPT_HELP,
  [
    {
      does: 'Take a slower release as the new normal',
      line: 'qpswatch accept mariadb-10.11.9 --reason "durable commits by default now"',
    },
  ],
);
export const ackCommand = triageCommand('ack', 'acknowledge a regression: keep reporting it, stop emailing', ACK_HELP, [
  {
    does: 'Stop the emails about a known regression of one test',
    line: 'qpswatch ack mariadb-10.11.9 update-index --reason "known, fixed in 10.11.10"',
  },
]);
export const invalidCommand = triageCommand(
  'invalid',
  "mark a release's checks as noise or infrastructure and queue a rerun",
  INVALID_HELP,
  [
    {
      does: 'A check that ran beside a backup: drop it and check again',
      line: 'qpswatch invalid mariadb-10.11.9 --reason "backup ran during the session"',
    },
  ],
);
