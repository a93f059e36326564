/**
 * How a value moves from an SQLite column to a MySQL one. The MySQL backend stores what SQLite stores, in the same
 * form (mysql/schema.ts): ISO-8601 timestamps and JSON as text, INTEGER as BIGINT, REAL as DOUBLE, a BLOB as a
 * BLOB; so a value is only brought to the kind of its target column, never reinterpreted.
 */
export type ColumnKind = 'integer' | 'real' | 'text' | 'blob';

export type SourceValue = number | bigint | string | Buffer | null;
/** What the target is sent and what it answers with (mysql2: a BIGINT past 2^53 as text). */
export type TargetValue = number | string | Buffer | null;

const INTEGER_TYPES = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'bit', 'year']);
const REAL_TYPES = new Set(['double', 'float', 'real', 'decimal', 'numeric']);
const BLOB_TYPES = new Set(['blob', 'tinyblob', 'mediumblob', 'longblob', 'binary', 'varbinary']);

/** The kind of a target column from information_schema.COLUMNS.DATA_TYPE; anything else is text. */
export function columnKind(dataType: string): ColumnKind {
  const t = dataType.toLowerCase();
  if (INTEGER_TYPES.has(t)) return 'integer';
  if (REAL_TYPES.has(t)) return 'real';
  if (BLOB_TYPES.has(t)) return 'blob';
  return 'text';
}

/**
 * The value to insert for an SQLite value (read with safe integers, so a BIGINT past 2^53 arrives whole and is sent
 * as its digits). Returns undefined when the value cannot be one of that kind (text in an integer column): the
 * caller names the row.
 */
export function toTarget(value: SourceValue, kind: ColumnKind): TargetValue | undefined {
  if (value === null) return null;
  switch (kind) {
    case 'integer':
      if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'real':
      if (typeof value === 'bigint') return Number(value);
      return typeof value === 'number' ? value : undefined;
    case 'text':
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
    case 'blob':
      return Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8');
  }
}

/** Whether the target's stored value is the one `toTarget` sends for the source's. */
export function sameValue(sent: TargetValue, stored: unknown, kind: ColumnKind): boolean {
  if (sent === null || stored === null || stored === undefined) return sent === null && (stored ?? null) === null;
  switch (kind) {
    case 'integer':
      return String(sent) === String(stored);
    case 'real':
      return typeof stored === 'number' ? stored === sent : Number(stored) === sent;
    case 'text':
      return Buffer.isBuffer(stored) ? stored.toString('utf8') === sent : stored === sent;
    case 'blob':
      return Buffer.isBuffer(stored) && Buffer.isBuffer(sent) && stored.equals(sent);
  }
}

/** A key's values as one text, to find a row by its key. */
export function keyText(values: readonly unknown[]): string {
  return JSON.stringify(values.map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : String(v))));
}
