import type { Mailer, OutboxEntry, OutboxPort, OutgoingMessage } from '../../../src/notify/index.js';

interface StoredMessage extends OutboxEntry {
  state: 'pending' | 'sent';
  nextAttemptAt: string;
  lastError?: string;
  detail?: string;
  sentAt?: string;
}

/** The outbox as the store keeps it, in memory: enough of the store's contract for delivery tests. */
export class MemoryOutbox implements OutboxPort {
  readonly messages: StoredMessage[] = [];
  readonly calls: string[] = [];

  add(message: OutgoingMessage, createdAt: string): void {
    this.messages.push({ ...message, attempts: 0, state: 'pending', nextAttemptAt: createdAt });
  }

  get(id: number): StoredMessage {
    const found = this.messages.find((m) => m.id === id);
    if (found === undefined) throw new Error(`no message ${id}`);
    return found;
  }

  async takeDueMessages(now: string, limit: number, leaseUntil: string): Promise<OutboxEntry[]> {
    this.calls.push(`due ${now} ${limit}`);
    const due = this.messages.filter((m) => m.state === 'pending' && m.nextAttemptAt <= now).slice(0, limit);
    for (const m of due) m.nextAttemptAt = leaseUntil;
    return due.map(({ id, from, to, subject, text, html, messageId, attempts }) => ({
      id,
      from,
      to,
      subject,
      text,
      html,
      messageId,
      attempts,
    }));
  }

  async returnMessage(id: number, at: string): Promise<void> {
    this.calls.push(`returned ${id}`);
    this.get(id).nextAttemptAt = at;
  }

  async markMessageSent(id: number, detail: string, at: string): Promise<void> {
    this.calls.push(`sent ${id}`);
    Object.assign(this.get(id), { state: 'sent', detail, sentAt: at });
  }

  async markMessageFailed(id: number, error: string, nextAttemptAt: string): Promise<void> {
    this.calls.push(`failed ${id}`);
    const message = this.get(id);
    Object.assign(message, { attempts: message.attempts + 1, lastError: error, nextAttemptAt });
  }
}

/** A mailer that records what it was given and fails for the ids it is told to. */
export class FakeMailer implements Mailer {
  readonly kind = 'eml' as const;
  readonly sent: OutgoingMessage[] = [];
  closed = 0;

  constructor(readonly failures: ReadonlyMap<number, Error> = new Map()) {}

  async send(message: OutgoingMessage): Promise<string> {
    const failure = this.failures.get(message.id);
    if (failure !== undefined) throw failure;
    this.sent.push(message);
    return `250 ok ${message.id}`;
  }

  async close(): Promise<void> {
    this.closed += 1;
  }
}

export function message(id: number, subject = `alert ${id}`): OutgoingMessage {
  return {
    id,
    from: 'qpswatch@example.org',
    to: ['dba@example.org'],
    subject,
    text: 'text',
    html: '<p>html</p>',
    messageId: `<${id}@qpswatch.test>`,
  };
}
