/** What the inventory says when a source gave no answer, or an empty or placeholder one. */
export const UNKNOWN = 'unknown';

export type Fact = number | typeof UNKNOWN;

// What firmware vendors leave in DMI fields they did not fill, and what systeminformation puts in empty ones.
const PLACEHOLDERS = new Set([
  '',
  '-',
  'unknown',
  'not specified',
  'not available',
  'none',
  'default string',
  'to be filled by o.e.m.',
  'system product name',
  'system manufacturer',
  'o.e.m.',
]);

export function knownText(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value).trim();
  return PLACEHOLDERS.has(text.toLowerCase()) ? UNKNOWN : text;
}

/** A positive finite number, else unknown (systeminformation reports 0 or null for what it could not read). */
export function knownNumber(value: number | null | undefined): Fact {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : UNKNOWN;
}
