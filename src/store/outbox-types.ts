/** The outbox: alert messages a check queued, waiting until the mail server takes them. */

export interface MessageInput {
  /** Unique per event and kind: a message with a key already in the outbox is never queued twice. */
  eventKey: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

export interface OutboxRecord extends MessageInput {
  id: number;
  state: 'pending' | 'sent';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  /** The SMTP server's answer, or the .eml file written. */
  detail: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** The messages waiting to be sent; a check queues them (CheckStore.recordCheck), delivery marks them. */
export interface OutboxStore {
  /** Pending messages whose next attempt is due at `now` (ISO 8601), oldest first. */
  dueMessages(now: string, limit: number): Promise<OutboxRecord[]>;
  /**
   * Takes the messages due at `now` for one sender, in one transaction: each stays pending, but is due to nobody else
   * until `leaseUntil`, so daemons sharing a store never send one message twice, and a sender that died leaves its
   * messages due again once the lease ends.
   */
  takeDueMessages(now: string, limit: number, leaseUntil: string): Promise<OutboxRecord[]>;
  /** A taken message that was not attempted (the sender was stopped): due again at `at`, no attempt counted. */
  returnMessage(id: number, at: string): Promise<void>;
  markMessageSent(id: number, detail: string, at: string): Promise<void>;
  markMessageFailed(id: number, error: string, nextAttemptAt: string): Promise<void>;
  listMessages(state?: OutboxRecord['state']): Promise<OutboxRecord[]>;
  /** The earliest next attempt of a pending message (ISO 8601), or null when none is pending: when to wake up. */
  nextMessageDue(): Promise<string | null>;
}
