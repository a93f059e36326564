import { z } from 'zod';
import type { ImportedResultInput } from './result-types.js';
import { aboveZero, line, parseRecord, perOpShape, text, wholeFrom } from './validate.js';

const resultSchema = z.object({
  flavor: text(),
  version: text(),
  versionKey: text(),
  test: line(),
  threads: wholeFrom(1),
  qps: aboveZero(),
  ...perOpShape(),
});

export function parseImportedResults(rows: readonly ImportedResultInput[]): ImportedResultInput[] {
  return rows.map((row) => parseRecord(resultSchema, 'result', row));
}
