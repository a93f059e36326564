/** RFC 4180: records end with CRLF; a field holding a quote, comma, CR or LF is quoted, its quotes doubled. */
export const CSV_RECORD_END = '\r\n';

// A spreadsheet reads a cell starting with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Text that a spreadsheet would run as a formula (`=cmd|' /C calc'!A0`, `+1+1`, `@SUM(...)`) gets a leading
 * apostrophe, so it shows as the text it is; numbers, negative ones included, stay numbers.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** The inverse for a file qpswatch wrote: `'=x` reads back as `=x`; any other text is left as it is. */
export function unneutralizeFormula(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) && !PLAIN_NUMBER.test(text.slice(1))
    ? text.slice(1)
    : text;
}

export function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : neutralizeFormula(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(fields: readonly (string | number)[]): string {
  return fields.map(csvField).join(',') + CSV_RECORD_END;
}
