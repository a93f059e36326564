import type Database from 'better-sqlite3';
import { MessageNotFoundError } from '../errors.js';
import type { MessageInput, OutboxRecord } from '../check-types.js';

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

/** The outbox table: messages wait here until the mail server takes them. */
export class SqliteOutbox {
  readonly #sql;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      // The event key is unique: queuing the same event twice (a check recorded again after a crash) is a no-op.
      insert: p(`INSERT INTO outbox (event_key, from_address, recipients, subject, text_body, html_body, message_id, state, next_attempt_at, created_at)
        VALUES (@eventKey, @from, @recipients, @subject, @text, @html, @messageId, 'pending', @at, @at) ON CONFLICT (event_key) DO NOTHING`),
      due: p(`SELECT * FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`),
      sent: p(`UPDATE outbox SET state = 'sent', attempts = attempts + 1, detail = @detail, sent_at = @at, last_error = NULL
        WHERE id = @id AND state = 'pending'`),
      failed: p(`UPDATE outbox SET attempts = attempts + 1, last_error = @error, next_attempt_at = @next WHERE id = @id AND state = 'pending'`),
      all: p(`SELECT * FROM outbox WHERE (@state IS NULL OR state = @state) ORDER BY id`),
      byId: p('SELECT id FROM outbox WHERE id = ?'),
    };
  }

  enqueue(message: MessageInput, at: string): void {
    this.#sql.insert.run({ ...message, recipients: JSON.stringify(message.to), at });
  }

  due(now: string, limit: number): OutboxRecord[] {
    return (this.#sql.due.all(now, limit) as OutboxRow[]).map(messageFromRow);
  }

  /** A message already sent stays sent: a second mark changes nothing. */
  markSent(id: number, detail: string, at: string): void {
    if (this.#sql.sent.run({ id, detail, at }).changes === 0) this.#exists(id);
  }

  markFailed(id: number, error: string, nextAttemptAt: string): void {
    if (this.#sql.failed.run({ id, error, next: nextAttemptAt }).changes === 0) this.#exists(id);
  }

  list(state: OutboxRecord['state'] | undefined): OutboxRecord[] {
    return (this.#sql.all.all({ state: state ?? null }) as OutboxRow[]).map(messageFromRow);
  }

  #exists(id: number): void {
    if (this.#sql.byId.get(id) === undefined) throw new MessageNotFoundError(id);
  }
}
