/** What the quiet-host check saw before a session, and how long the session waited for a quiet host. */

export interface QuietHostInput {
  sessionId: number;
  /** The last observation before the session (plain JSON: the sampling room's QuietHostObservation). */
  observation: object;
  quiet: boolean;
  /** Why the host was not quiet at the last observation; empty when it was. */
  reasons: string[];
  /** Seconds waited for a quiet host before the session started. */
  waitedSeconds: number;
}

export interface QuietHostRecord extends Omit<QuietHostInput, 'observation'> {
  observation: Record<string, unknown>;
  checkedAt: string;
}

/** The quiet-host checks of sessions, one row per session. */
export interface QuietHostStore {
  /** The session must exist; a second record of the same session replaces the first. */
  recordQuietHost(input: QuietHostInput): Promise<void>;
  getQuietHost(sessionId: number): Promise<QuietHostRecord | undefined>;
}
