import type { HistoryView } from './history.js';

/**
 * A series' history on several hosts, side by side, as the reference studies compare their servers: each host's
 * figures relative to the base release measured on that same host, never one host's QPS over another's.
 */
export interface HostsHistoryView {
  series: string;
  flavor: string;
  /** the version every host's figures are relative to, each on its own host */
  base: string;
  /** every version measured on any of the hosts, oldest first: the rows */
  versions: readonly string[];
  hosts: readonly HostColumn[];
  /** ISO 8601, printed as given */
  generatedAt: string;
}

export interface HostColumn {
  /** the fingerprint id: results of different ids are never compared */
  fingerprintId: string;
  /** what a person recognises the machine by: CPU model, cores, memory (from the stored fingerprint) */
  inventory: string;
  /** the host's own history against the base on it; null when the base was not measured on the host */
  history: HistoryView | null;
}
