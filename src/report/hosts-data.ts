import type { HostsHistoryView } from '../model/index.js';
import { csvRecord } from './csv.js';
import { relativeQpsCells } from './history-csv.js';
import { jsonRelativeQps } from './history-json.js';
import { hostsSideBySide } from './hosts-table.js';

/**
 * The side-by-side view in JSON: the hosts (fingerprint id, inventory, whether the base was measured there), and per
 * test and host its relative QPS aligned with `versions` (chained with low and high, or a median; null: not measured).
 */
export function hostsJson(view: HostsHistoryView): string {
  const columns = hostsSideBySide(view).flatMap((table) =>
    table.columns.map((c, i) => ({
      test: c.test,
      threads: c.threads,
      ...(c.memory !== undefined ? { memory: c.memory } : {}),
      host: view.hosts[c.host]!.fingerprintId,
      relativeQps: table.rows.map((row) => jsonRelativeQps(row[i] ?? null)),
    })),
  );
  const ordered = {
    series: view.series,
    flavor: view.flavor,
    base: view.base,
    versions: view.versions,
    hosts: view.hosts.map((h) => ({
      fingerprintId: h.fingerprintId,
      inventory: h.inventory,
      baseMeasured: h.history !== null,
    })),
    columns,
    generatedAt: view.generatedAt,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export const HOSTS_CSV_HEADER = [
  'series',
  'flavor',
  'base_version',
  'version',
  'test',
  'threads',
  'memory',
  'host',
  'host_inventory',
  'relative_qps',
  'relative_qps_low',
  'relative_qps_high',
  'source',
  'step',
] as const;

/** Long format: one record per version, test and host that has a figure; each relative to the base on its host. */
export function hostsCsv(view: HostsHistoryView): string {
  const records = hostsSideBySide(view).flatMap((table) =>
    view.versions.flatMap((version, v) =>
      table.columns.flatMap((c, i) => {
        const cell = table.rows[v]?.[i] ?? null;
        if (cell === null) return [];
        const host = view.hosts[c.host]!;
        return [
          csvRecord([
            view.series,
            view.flavor,
            view.base,
            version,
            c.test,
            c.threads,
            c.memory ?? '',
            host.fingerprintId,
            host.inventory,
            ...relativeQpsCells(cell),
          ]),
        ];
      }),
    ),
  );
  return csvRecord(HOSTS_CSV_HEADER) + records.join('');
}
