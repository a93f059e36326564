import type { StoreCopyReport } from '../store/index.js';

const HEADER = ['table', 'source', 'target', 'copied', 'already there'] as const;

/** What store copy prints: the stores, a table of counts per table, and one line that says how it went. */
export function storeCopyText(report: StoreCopyReport): string {
  const rows = report.tables.map((t) => [t.table, t.source, t.target, t.copied, t.present].map(String));
  const total = (pick: (t: StoreCopyReport['tables'][number]) => number): string =>
    String(report.tables.reduce((n, t) => n + pick(t), 0));
  rows.push([
    'all tables',
    total((t) => t.source),
    total((t) => t.target),
    total((t) => t.copied),
    total((t) => t.present),
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const extra = report.tables.filter((t) => t.target > t.source);
  const lines = [
    `store copy: sqlite:${report.from} -> ${report.to} (schema version ${report.schemaVersion}` +
      `${report.created ? '; the target database was empty, its tables were made' : ''})`,
    line(HEADER),
    ...rows.map(line),
    report.copied === 0
      ? 'nothing to copy: the target holds every row of the source already, equal in every column; nothing was changed'
      : `copied ${report.copied} rows in ${report.seconds.toFixed(1)} s; ` +
        'every row of the source is in the target, and the counts match',
  ];
  if (extra.length > 0)
    lines.push(
      `the target holds rows the source has not ` +
        `(${extra.map((t) => `${t.table} +${t.target - t.source}`).join(', ')}): its own, left as they are`,
    );
  return `${lines.join('\n')}\n`;
}
