import type { CacheSizes, WorkProgress } from '../model/index.js';

/**
 * Each daemon's row of state, by its host_name: its last poll and the phase it is in, for status and metrics of
 * another process. A store from before fleets has one row for the host '', which a host without a row of its own
 * reads until it writes one.
 */

export interface DaemonStateRecord {
  /** When the last discovery of all upstreams finished; null before the first. */
  lastPollAt: string | null;
  /** The phase the running daemon is in, as it last wrote it; idle when none runs. */
  phase: string;
  phaseSince: string | null;
  /** Why the daemon waits (the quiet-host reasons), or null. */
  detail: string | null;
  /** The daemon process that wrote the phase; status checks it is alive before believing the phase. */
  pid: number | null;
  /** How far the build or session under way is (written every few seconds while it runs); null when none runs. */
  progress: WorkProgress | null;
  /** The last measured sizes of ccache, the mirrors and the installs; null before the first measure. */
  cacheSizes: CacheSizes | null;
  updatedAt: string | null;
}

export type DaemonStateInput = Partial<Omit<DaemonStateRecord, 'updatedAt'>>;

/** Each daemon's own row, by host_name. */
export interface DaemonStateStore {
  getDaemonState(host: string): Promise<DaemonStateRecord>;
  /** Changes only the fields given, of the host's row (made from the pre-fleet row, if any, on its first write). */
  setDaemonState(host: string, input: DaemonStateInput): Promise<DaemonStateRecord>;
}
