import { deliverPending, mailSettings } from '../checks/index.js';
import type { OutboxRecord } from '../store/index.js';
import type { Command } from './command.js';
import { EXIT_FAILED, EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch outbox [--send] [--all] [--json]

Lists the emails qpswatch has queued: pending ones (with their attempts, next attempt and last error) and,
with --all, the sent ones too. Messages are queued by \`qpswatch check\` in the same step as the regression
they report, and sent right after; one the mail server did not take is retried with backoff (30 s,
doubling, at most 1 h apart) by the daemon, or now with --send. With no smtp_host in the config, each
message is written as an .eml file to outbox_dir instead.

Options:
  --json   the messages as one JSON array: id, subject, to, state, attempts, nextAttemptAt, lastError,
           sentAt, detail (with --all, the sent ones too); not with --send
  --send   try every pending message now, whatever its next attempt says
  --all    list sent messages too
One message may take at most smtp_timeout_seconds in all (a server that trickles bytes is cut off), and SIGTERM
or Ctrl-C stops the one being sent at once; it stays pending.
Exit codes: 0 done (with --send: every pending message sent); 1 with --send, some are still pending (listed,
each with its last error).
`;

const FLAGS = { send: { type: 'boolean' }, all: { type: 'boolean' }, json: { type: 'boolean' } } as const;

export const outboxCommand: Command = {
  name: 'outbox',
  summary: 'list queued emails; --send tries the pending ones now',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [
    { does: 'The emails waiting to be sent', line: 'qpswatch outbox' },
    { does: 'Send them now', line: 'qpswatch outbox --send' },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    if (positionals.length > 0)
      throw new UsageError(`outbox takes no arguments, got ${JSON.stringify(positionals[0])}`, HELP);
    if (values.json === true && values.send === true)
      throw new UsageError(
        '--json lists, --send sends: run `qpswatch outbox --send`, then `qpswatch outbox --json`',
        HELP,
      );
    const store = await openStateStore(ctx, { readonly: values.send !== true });
    try {
      if (values.send === true) {
        const settings = mailSettings(ctx.config);
        const result = await deliverPending({ mail: settings, store, log: ctx.log, signal: ctx.signal }, { now: true });
        const where =
          settings.smtpHost === ''
            ? `written to ${settings.outboxDir}`
            : `sent to ${settings.smtpHost}:${settings.smtpPort}`;
        ctx.stdout(`${result.delivered} message(s) ${where}; ${result.failed} failed and stay pending\n`);
        if (ctx.signal.aborted) {
          ctx.stdout('stopped before every message was tried; the others stay pending\n');
          return EXIT_FAILED;
        }
        if (result.failed > 0) {
          // What is still pending, each with its last error: the one line that says why (and which option helps).
          ctx.stdout((await store.listMessages('pending')).map(line).join(''));
          return EXIT_FAILED;
        }
      }
      const messages = await store.listMessages(values.all === true ? undefined : 'pending');
      if (values.json === true) ctx.stdout(`${JSON.stringify(messages.map(asJson), null, 2)}\n`);
      else
        ctx.stdout(
          messages.length === 0 ? `no ${values.all === true ? '' : 'pending '}messages\n` : messages.map(line).join(''),
        );
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};

function line(m: OutboxRecord): string {
  const state =
    m.state === 'sent'
      ? `sent ${m.sentAt} (${m.detail ?? ''})`
      : `pending, ${m.attempts} attempt(s), next ` +
        `${m.nextAttemptAt}${m.lastError !== null ? `, last error: ${m.lastError}` : ''}`;
  return `#${m.id} ${m.subject}\n    to ${m.to.join(', ')}; ${state}\n`;
}

/** What a person or a script needs to follow a message; the bodies stay in the store. */
function asJson(
  m: OutboxRecord,
): Pick<
  OutboxRecord,
  'id' | 'subject' | 'to' | 'state' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'sentAt' | 'detail'
> {
  return {
    id: m.id,
    subject: m.subject,
    to: m.to,
    state: m.state,
    attempts: m.attempts,
    nextAttemptAt: m.nextAttemptAt,
    lastError: m.lastError,
    sentAt: m.sentAt,
    detail: m.detail,
  };
}
