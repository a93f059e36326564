import { basename, resolve } from 'node:path';
import { seriesResults } from '../views/index.js';
import { RATE_FIGURES, type RateField } from '../model/index.js';
import { formatResultsCsv, parseResultsCsv, RESULTS_CSV_HEADER, type ResultRow } from '../report/index.js';
import { DuplicateResultError, type ImportedResultInput } from '../store/index.js';
import { parseVersion, versionKey } from '../version/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { seriesFromFlag } from './series-flag.js';
import { UsageError } from './usage-error.js';
import { readTextFile, UnreadableFileError, writeFileSafely } from '../trust/index.js';

const CSV_FORMAT = `The CSV has the header ${RESULTS_CSV_HEADER.join(',')} (any order, extra
columns allowed and ignored): flavor mariadb|mysql|percona, version such as 10.11.6 or 8.0.36-28, qps > 0,
the per-op figures >= 0:
${RATE_FIGURES.map((f) => `  ${f.csv.padEnd(8)} ${f.about}`).join('\n')}`;
const IMPORT_HELP = `Usage: qpswatch import FILE [--replace]

Brings results measured elsewhere (an earlier study, another qpswatch store) into this store. Imported rows
are marked as imported and fill, in \`qpswatch report\`, the versions of a series not measured here.
All rows or none: a bad header, a bad cell, a negative QPS or a row already stored names its line and
column, and nothing is imported.

${CSV_FORMAT}

Options:
  --replace   replace rows of the same flavor, version, test and threads instead of refusing them
Exit codes: 0 imported; 2 bad input (nothing imported).
`;

const EXPORT_HELP = `Usage: qpswatch export [--series NAME] [--output FILE]

Writes results as CSV, one row per version and test: for each series (or the one named), the figures
\`qpswatch report\` shows (medians over the valid sessions of one host), then every imported row not
measured here. \`qpswatch import\` reads the file back into another store.

${CSV_FORMAT}

Options:
  --series NAME   one upstream only (default: all, plus every imported row)
  --output FILE   write to FILE (replaced atomically) instead of stdout
Exit codes: 0 written; 2 bad input.
`;

const IMPORT_FLAGS = { replace: { type: 'boolean' } } as const;

export const importCommand: Command = {
  name: 'import',
  summary: 'import results from CSV (flavor,version,test,threads,qps,cpu_o,...)',
  help: IMPORT_HELP,
  flags: IMPORT_FLAGS,
  positionals: true,
  examples: [{ does: "Bring in an earlier study's results", line: 'qpswatch import results.csv' }],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, IMPORT_FLAGS, IMPORT_HELP, true);
    if (positionals.length !== 1) throw new UsageError('import takes one FILE', IMPORT_HELP);
    const path = resolve(ctx.cwd, positionals[0]!);
    const name = basename(path);
    const rows = parseResultsCsv(readCsv(path, positionals[0]!), name);
    const store = await openStateStore(ctx);
    try {
      const counts = await store
        .importResults(rows.map(toImported), name, { replace: values.replace === true })
        .catch((err: unknown) => {
          if (!(err instanceof DuplicateResultError)) throw err;
          // The header is line 1, so the row at index i is on line i + 2.
          throw new UsageError(`${name} line ${err.index + 2}: ${err.message}; use --replace to replace stored rows`);
        });
      ctx.stdout(`imported ${rows.length} row(s) from ${name}: ${counts.added} new, ${counts.replaced} replaced\n`);
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};

const EXPORT_FLAGS = { series: { type: 'string' }, output: { type: 'string' } } as const;

export const exportCommand: Command = {
  name: 'export',
  summary: 'export results as CSV, for another store or a spreadsheet',
  help: EXPORT_HELP,
  flags: EXPORT_FLAGS,
  positionals: true,
  examples: [{ does: "One series' results as CSV", line: 'qpswatch export --series mariadb-10.11 -o results.csv' }],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, EXPORT_FLAGS, EXPORT_HELP, true);
    if (positionals.length > 0)
      throw new UsageError(`export takes no arguments, got ${JSON.stringify(positionals[0])}`, EXPORT_HELP);
    const upstreams = values.series !== undefined ? [seriesFromFlag(values.series, ctx)] : ctx.upstreams;
    const store = await openStateStore(ctx, { readonly: true });
    let rows: ResultRow[];
    try {
      rows = [];
      for (const upstream of upstreams) rows.push(...(await seriesResults(store, upstream)));
      if (values.series === undefined) rows.push(...(await store.listImportedResults()));
    } finally {
      await store.close();
    }
    const csv = formatResultsCsv(uniqueRows(rows));
    if (values.output === undefined) ctx.stdout(csv);
    else writeAtomically(resolve(ctx.cwd, values.output), csv);
    return EXIT_OK;
  },
};

/** A results CSV of the largest studies is well under 1 MB; parsing takes about 40 times the file's size. */
const MAX_IMPORT_BYTES = 8 * 1024 * 1024;

/** Read whole, bounded, never blocking on a FIFO; text that is not UTF-8 is refused, never silently replaced. */
function readCsv(path: string, given: string): string {
  try {
    return readTextFile(path, { what: 'import file', maxBytes: MAX_IMPORT_BYTES });
  } catch (err) {
    if (!(err instanceof UnreadableFileError)) throw err;
    const code = err.code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a CSV file'
          : `cannot read it (${code ?? 'error'})`;
    throw new UsageError(`import ${JSON.stringify(given)}: ${why}`);
  }
}

function toImported(row: ResultRow): ImportedResultInput {
  const version = parseVersion(row.version);
  return { ...row, version: version.text, versionKey: versionKey(version) };
}

/** The first row of a (flavor, version, test, threads) wins: measured results come before imported ones. */
function uniqueRows(rows: readonly ResultRow[]): ResultRow[] {
  const seen = new Set<string>();
  const out: ResultRow[] = [];
  for (const r of rows) {
    const key = [r.flavor, r.version, r.test, r.threads].join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      flavor: r.flavor,
      version: r.version,
      test: r.test,
      threads: r.threads,
      qps: r.qps,
      ...(Object.fromEntries(RATE_FIGURES.map(({ field }) => [field, r[field]])) as Pick<ResultRow, RateField>),
    });
  }
  return out;
}

/** --output may be in a folder others can write (/tmp): trust's write follows no link and cannot be pre-empted. */
function writeAtomically(path: string, text: string): void {
  try {
    writeFileSafely(path, text);
  } catch (err) {
    throw new UsageError(
      `--output ${JSON.stringify(path)}: cannot write it ` +
        `(${(err as NodeJS.ErrnoException).code ?? 'error'}); choose a writable ` +
        `path`,
    );
  }
}
