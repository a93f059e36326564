import { MessageNotFoundError } from '../errors.js';
import type { MessageInput, OutboxRecord, OutboxStore } from '../outbox-types.js';
import { checkId, checkText } from '../validate.js';
import { SqlRole, type SqlDialect, type SqlTx } from '../sql.js';

interface OutboxRow {
  id: number;
  event_key: string;
  from_address: string;
  recipients: string;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  state: 'pending' | 'sent';
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  detail: string | null;
  created_at: string;
  sent_at: string | null;
}

const messageFromRow = (r: OutboxRow): OutboxRecord => ({
  id: r.id,
  eventKey: r.event_key,
  from: r.from_address,
  to: JSON.parse(r.recipients) as string[],
  subject: r.subject,
  text: r.text_body,
  html: r.html_body,
  messageId: r.message_id,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  detail: r.detail,
  createdAt: r.created_at,
  sentAt: r.sent_at,
});

/**
 * Queues a message inside the caller's transaction (a check's, a failed queue row's, a bisection's). The event key is
 * unique: queuing the same event twice (a check recorded again after a crash) is a no-op.
 */
export async function queueMessage(tx: SqlTx, dialect: SqlDialect, message: MessageInput, at: string): Promise<void> {
  await dialect.insertUnlessKey(tx, {
    table: 'outbox',
    row: {
      event_key: message.eventKey,
      from_address: message.from,
      recipients: JSON.stringify(message.to),
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      message_id: message.messageId,
      state: 'pending',
      next_attempt_at: at,
      created_at: at,
    },
    key: ['event_key'],
  });
}

/** The outbox table: messages wait here until the mail server takes them. */
export class Outbox extends SqlRole implements OutboxStore {
  async dueMessages(now: string, limit: number): Promise<OutboxRecord[]> {
    checkText('message', 'now', now);
    checkId('message', 'limit', limit);
    return this.read('read the outbox', async (tx) =>
      (
        await tx.rows<OutboxRow>(
          `SELECT * FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
          [now, limit],
        )
      ).map(messageFromRow),
    );
  }

  /** A message already sent stays sent: a second mark changes nothing. */
  async markMessageSent(id: number, detail: string, at: string): Promise<void> {
    checkId('message', 'id', id);
    await this.write('mark a message sent', async (tx) => {
      const { affectedRows } = await tx.run(
        `UPDATE outbox SET state = 'sent', attempts = attempts + 1, detail = ?, sent_at = ?, last_error = NULL
          WHERE id = ? AND state = 'pending'`,
        [detail, checkText('message', 'at', at), id],
      );
      if (affectedRows === 0) await exists(tx, id);
    });
  }

  async takeDueMessages(now: string, limit: number, leaseUntil: string): Promise<OutboxRecord[]> {
    checkText('message', 'now', now);
    checkId('message', 'limit', limit);
    const until = checkText('message', 'leaseUntil', leaseUntil);
    return this.write('take due messages', async (tx) => {
      // Under the write lock, and (MySQL) locked as read: another daemon's take waits, then finds them due later.
      const due = (
        await tx.rows<OutboxRow>(
          `SELECT * FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?` +
            this.dialect.lockRows,
          [now, limit],
        )
      ).map(messageFromRow);
      for (const m of due)
        await tx.run(`UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND state = 'pending'`, [until, m.id]);
      return due;
    });
  }

  async returnMessage(id: number, at: string): Promise<void> {
    checkId('message', 'id', id);
    const until = checkText('message', 'at', at);
    await this.write('return a message', async (tx) => {
      const { affectedRows } = await tx.run(
        `UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND state = 'pending'`,
        [until, id],
      );
      if (affectedRows === 0) await exists(tx, id);
    });
  }

  async markMessageFailed(id: number, error: string, nextAttemptAt: string): Promise<void> {
    checkId('message', 'id', id);
    await this.write('mark a message failed', async (tx) => {
      const { affectedRows } = await tx.run(
        `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
          WHERE id = ? AND state = 'pending'`,
        [error, checkText('message', 'nextAttemptAt', nextAttemptAt), id],
      );
      if (affectedRows === 0) await exists(tx, id);
    });
  }

  async listMessages(state?: OutboxRecord['state']): Promise<OutboxRecord[]> {
    return this.read('read the outbox', async (tx) =>
      (
        await tx.rows<OutboxRow>('SELECT * FROM outbox WHERE (? IS NULL OR state = ?) ORDER BY id', [
          state ?? null,
          state ?? null,
        ])
      ).map(messageFromRow),
    );
  }

  async nextMessageDue(): Promise<string | null> {
    return this.read(
      'read the outbox',
      async (tx) =>
        (await tx.row<{ at: string | null }>(`SELECT MIN(next_attempt_at) AS at FROM outbox WHERE state = 'pending'`))
          ?.at ?? null,
    );
  }
}

async function exists(tx: SqlTx, id: number): Promise<void> {
  if ((await tx.row('SELECT id FROM outbox WHERE id = ?', [id])) === undefined) throw new MessageNotFoundError(id);
}
