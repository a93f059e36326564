import type { CacheSizes, WorkProgress } from '../model/index.js';

/** The daemon's one row of state: its last poll and the phase it is in, for status and metrics of another process. */

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

/** The daemon's own row. */
export interface DaemonStateStore {
  getDaemonState(): Promise<DaemonStateRecord>;
  /** Changes only the fields given. */
  setDaemonState(input: DaemonStateInput): Promise<DaemonStateRecord>;
}
