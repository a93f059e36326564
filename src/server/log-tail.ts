import { open, stat } from 'node:fs/promises';

/** Enough of a failed start to say why without flooding the message. */
const MAX_LINES = 5;
/** Reading the whole log of a long-lived datadir would be wasteful: the cause is near the end. */
const MAX_READ_BYTES = 256 * 1024;

/** Where the error log ends now, so a later read sees only what this run wrote. */
export async function logSize(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

export async function readLogSince(file: string, offset: number): Promise<string> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return '';
  try {
    const size = (await handle.stat()).size;
    const from = Math.max(offset, size - MAX_READ_BYTES);
    const buffer = Buffer.alloc(Math.max(0, size - from));
    await handle.read(buffer, 0, buffer.length, from);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The lines that say why: the last [ERROR] lines (MariaDB "[ERROR] mariadbd: unknown variable 'foo=1'", MySQL
 * "[ERROR] [MY-000067] [Server] unknown variable"); without any, the last lines (a crash prints a signal report).
 */
export function pickLogErrors(...texts: string[]): string[] {
  // The same line may reach both the error log and the captured output.
  const lines = [
    ...new Set(
      texts
        .flatMap((t) => t.split('\n'))
        .map((l) => l.trimEnd())
        .filter((l) => l.trim() !== ''),
    ),
  ];
  const errors = lines.filter((l) => l.includes('[ERROR]'));
  return (errors.length > 0 ? errors : lines).slice(-MAX_LINES);
}

/**
 * The error lines as one line for a message: timestamps and thread ids dropped, mysqld's closing "Aborting" left out
 * (it says nothing the line before it did not). The full lines stay in the error's fields and in the log.
 */
export function summarizeLogErrors(lines: readonly string[]): string {
  const cleaned = lines
    .map((l) => l.replace(/^\d{4}-\d{2}-\d{2}[ T]+\d{1,2}:\d{2}:\d{2}(\.\d+)?Z?\s+(\d+\s+)?/, '').trim())
    .filter((l) => !/^\[ERROR\] Aborting$/.test(l));
  return [...new Set(cleaned)].slice(-2).join(' | ');
}
