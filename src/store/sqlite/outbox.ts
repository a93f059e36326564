import type { MessageInput } from '../outbox-types.js';
import type { SqliteConnection } from './connection.js';

/**
 * Queues a message inside the caller's transaction, for the role still written for SQLite alone (checks);
 * roles/outbox.ts's queueMessage is the same statement for the roles written once. The event key is unique: queuing
 * the same event twice (a check recorded again after a crash) is a no-op.
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
