/** RFC 4180: records end with CRLF; a field holding a quote, comma, CR or LF is quoted, its quotes doubled. */
export const CSV_RECORD_END = '\r\n';

export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(fields: readonly (string | number)[]): string {
  return fields.map(csvField).join(',') + CSV_RECORD_END;
}
