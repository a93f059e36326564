const MAX_LENGTH = 500;

/**
 * What the outbox keeps of a failed attempt: one line (the first of the message, whitespace folded), short enough
 * for a table cell and a log field, e.g. "connect ECONNREFUSED 127.0.0.1:2525".
 */
export function describeAttemptError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const first = message.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  const folded = first.replace(/\s+/g, ' ').trim();
  const text = folded === '' ? (err instanceof Error ? err.name : 'unknown error') : folded;
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 3)}...` : text;
}
