import type { HostsHistoryView } from '../model/index.js';
import type { Block } from './document.js';
import { MEDIAN_FOOTNOTE, STEP_FOOTNOTE } from './history-figures.js';
import { relativeQpsCell } from './history-document.js';
import { levelPhrase } from './history-levels.js';
import { hostsSideBySide, type HostsLevelTable } from './hosts-table.js';
import { formatConfidence } from './number-format.js';
import { left, makeTable, right, type Table } from './table.js';

export function hostsTitle(view: HostsHistoryView): string {
  return `qpswatch hosts side by side: ${view.flavor} ${view.series}`;
}

/** The short name of the host at `index` in the column headings (h1, h2, ...); the legend says which host it is. */
export const hostTag = (index: number): string => `h${index + 1}`;

function hostLines(view: HostsHistoryView): string[] {
  return view.hosts.map(
    (h, i) =>
      `${hostTag(i)}: ${h.fingerprintId} (${h.inventory})` +
      (h.history === null ? `: base ${view.base} not measured on this host, no figures` : ''),
  );
}

/** One side-by-side table as the text, markdown and HTML layouts print it: "update-index h1" and so on. */
export function hostsLevelTable(table: HostsLevelTable, versions: readonly string[]): Table {
  const columns = [left('version'), ...table.columns.map((c) => right(`${c.test} ${hostTag(c.host)}`))];
  const rows = versions.map((version, v) => [version, ...(table.rows[v] ?? []).map((cell) => relativeQpsCell(cell))]);
  return makeTable(columns, rows);
}

function legend(view: HostsHistoryView, tables: readonly HostsLevelTable[]): string[] {
  const cells = tables.flatMap((t) => t.rows.flat());
  const confidence = view.hosts.find((h) => h.history?.confidence !== undefined)?.history?.confidence ?? 0.95;
  return [
    'each host against the base measured on that same host; no ratio mixes two hosts',
    ...(cells.some((c) => c?.source === 'chained' && c.steps > 0)
      ? [
          `chained through the host's paired checks to the base, ` +
            `${formatConfidence(confidence)} interval in parentheses`,
        ]
      : []),
    ...(cells.some((c) => c?.source === 'chained' && c.step !== null) ? [STEP_FOOTNOTE] : []),
    ...(cells.some((c) => c?.source === 'median') ? [MEDIAN_FOOTNOTE] : []),
    '- not measured on that host',
  ];
}

/** The side-by-side report as blocks: the hosts, then one relative QPS table per level, then what the marks mean. */
export function hostsDocument(view: HostsHistoryView): Block[] {
  const tables = hostsSideBySide(view);
  return [
    { kind: 'heading', level: 1, text: hostsTitle(view) },
    {
      kind: 'lines',
      lines: [`series ${view.series}, flavor ${view.flavor}, base ${view.base}`, `generated: ${view.generatedAt}`],
    },
    { kind: 'heading', level: 2, text: 'Hosts' },
    { kind: 'lines', lines: hostLines(view) },
    ...tables.flatMap((table): Block[] => [
      {
        kind: 'heading',
        level: 2,
        text: `Relative QPS at ${levelPhrase(table.level)} (version / ${view.base} on the same host)`,
      },
      { kind: 'table', table: hostsLevelTable(table, view.versions) },
    ]),
    ...(tables.length === 0 ? [{ kind: 'lines', lines: ['(no tests measured)'] } as const] : []),
    { kind: 'lines', lines: legend(view, tables) },
  ];
}
