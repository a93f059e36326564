import { MessageNotFoundError } from '../errors.js';
import type { MessageInput, OutboxRecord, OutboxStore } from '../outbox-types.js';
import { checkId, checkText } from '../validate.js';
import { SqliteRole, type SqliteConnection } from './connection.js';

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
 * Queues a message inside the caller's transaction (a check's, see checks.ts). The event key is unique: queuing the
 * same event twice (a check recorded again after a crash) is a no-op.
 */
export function messageQueuer(conn: SqliteConnection): (message: MessageInput, at: string) => void {
  const insert =
    conn.prepare(`INSERT INTO outbox (event_key, from_address, recipients, subject, text_body, html_body, message_id,
      state, next_attempt_at, created_at)
    VALUES (@eventKey, @from, @recipients, @subject, @text, @html, @messageId, 'pending', @at, @at) ON CONFLICT
      (event_key) DO NOTHING`);
  return (message, at) => {
    insert.run({ ...message, recipients: JSON.stringify(message.to), at });
  };
}

/** The outbox table: messages wait here until the mail server takes them. */
export class SqliteOutbox extends SqliteRole implements OutboxStore {
  readonly #sql = this.statements({
    due: `SELECT * FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`,
    sent: `UPDATE outbox SET state = 'sent', attempts = attempts + 1, detail = @detail, sent_at = @at, last_error = NULL
      WHERE id = @id AND state = 'pending'`,
    failed:
      `UPDATE outbox SET attempts = attempts + 1, last_error = @error, ` +
      `next_attempt_at = @next WHERE id = @id AND state = 'pending'`,
    lease: `UPDATE outbox SET next_attempt_at = @until WHERE id = @id AND state = 'pending'`,
    all: `SELECT * FROM outbox WHERE (@state IS NULL OR state = @state) ORDER BY id`,
    byId: 'SELECT id FROM outbox WHERE id = ?',
    nextDue: `SELECT MIN(next_attempt_at) AS at FROM outbox WHERE state = 'pending'`,
  });

  async dueMessages(now: string, limit: number): Promise<OutboxRecord[]> {
    checkText('message', 'now', now);
    checkId('message', 'limit', limit);
    return this.read('read the outbox', () => (this.#sql.due.all(now, limit) as OutboxRow[]).map(messageFromRow));
  }

  async takeDueMessages(now: string, limit: number, leaseUntil: string): Promise<OutboxRecord[]> {
    checkText('message', 'now', now);
    checkId('message', 'limit', limit);
    const until = checkText('message', 'leaseUntil', leaseUntil);
    return this.write('take due messages', () => {
      const due = (this.#sql.due.all(now, limit) as OutboxRow[]).map(messageFromRow);
      for (const m of due) this.#sql.lease.run({ id: m.id, until });
      return due;
    });
  }

  async returnMessage(id: number, at: string): Promise<void> {
    checkId('message', 'id', id);
    const until = checkText('message', 'at', at);
    await this.write('return a message', () => {
      if (this.#sql.lease.run({ id, until }).changes === 0) this.#exists(id);
    });
  }

  /** A message already sent stays sent: a second mark changes nothing. */
  async markMessageSent(id: number, detail: string, at: string): Promise<void> {
    checkId('message', 'id', id);
    await this.write('mark a message sent', () => {
      if (this.#sql.sent.run({ id, detail, at: checkText('message', 'at', at) }).changes === 0) this.#exists(id);
    });
  }

  async markMessageFailed(id: number, error: string, nextAttemptAt: string): Promise<void> {
    checkId('message', 'id', id);
    await this.write('mark a message failed', () => {
      if (this.#sql.failed.run({ id, error, next: checkText('message', 'nextAttemptAt', nextAttemptAt) }).changes === 0)
        this.#exists(id);
    });
  }

  async listMessages(state?: OutboxRecord['state']): Promise<OutboxRecord[]> {
    return this.read('read the outbox', () =>
      (this.#sql.all.all({ state: state ?? null }) as OutboxRow[]).map(messageFromRow),
    );
  }

  async nextMessageDue(): Promise<string | null> {
    return this.read('read the outbox', () => (this.#sql.nextDue.get() as { at: string | null }).at);
  }

  #exists(id: number): void {
    if (this.#sql.byId.get(id) === undefined) throw new MessageNotFoundError(id);
  }
}
