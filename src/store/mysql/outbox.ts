import { MessageNotFoundError } from '../errors.js';
import type { MessageInput, OutboxRecord, OutboxStore } from '../outbox-types.js';
import { checkId, checkText } from '../validate.js';
import { MysqlRole, type MysqlTx } from './connection.js';

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
 * unique: queuing the same event twice (a check recorded again after a crash) is a no-op. ON DUPLICATE KEY rather
 * than INSERT IGNORE, so that any other problem with the row still fails the transaction.
 */
export async function queueMessage(tx: MysqlTx, message: MessageInput, at: string): Promise<void> {
  await tx.run(
    `INSERT INTO outbox (event_key, from_address, recipients, subject, text_body, html_body, message_id, state,
      next_attempt_at, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?) ON DUPLICATE KEY UPDATE id = id`,
    [
      message.eventKey,
      message.from,
      JSON.stringify(message.to),
      message.subject,
      message.text,
      message.html,
      message.messageId,
      at,
      at,
    ],
  );
}

/** The outbox table: messages wait here until the mail server takes them. */
export class MysqlOutbox extends MysqlRole implements OutboxStore {
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
      // Under the write lock, and locked as read: another daemon's take waits, then finds them due later.
      const due = (
        await tx.rows<OutboxRow>(
          `SELECT * FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?
            FOR UPDATE`,
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

async function exists(tx: MysqlTx, id: number): Promise<void> {
  if ((await tx.row('SELECT id FROM outbox WHERE id = ?', [id])) === undefined) throw new MessageNotFoundError(id);
}
