/** A strict RFC 4180 reader for tests: proves that what the renderer wrote reads back field for field. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
      i++;
    } else if (char === '"' || char === '\r' || char === '\n') {
      throw new Error(`bare ${JSON.stringify(char)} at offset ${i} outside a quoted field`);
    } else field += char;
  }
  if (quoted || field !== '' || fields.length > 0)
    throw new Error('csv does not end with a complete CRLF-terminated record');
  return records;
}
