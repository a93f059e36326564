/** Sessions: one comparison of two targets on one host, written as it runs. */
import type { JsonObject } from './json-object.js';

export const sessionStates = ['running', 'done', 'interrupted', 'failed'] as const;
export type SessionState = (typeof sessionStates)[number];

export type SessionKind = 'compare';

/** One side of a session. Targets have no table of their own in this version: each session keeps a copy of both. */
export interface TargetRef {
  name: string;
  flavor: string;
  version: string;
  binary: string;
  serverProfile: string;
  description: JsonObject;
}

export interface SessionInput {
  kind: SessionKind;
  hostId: number;
  baseline: TargetRef;
  candidate: TargetRef;
  suite: string;
  rounds: number;
  /** The process running the session; a `running` session whose pid is gone was interrupted. */
  pid: number;
  /** When that process started (clock ticks since boot, /proc/PID/stat): a pid reused by another process is not it. */
  pidStartTicks?: number;
  settings: object;
}

export interface SessionRecord {
  id: number;
  kind: SessionKind;
  hostId: number;
  state: SessionState;
  baseline: TargetRef;
  candidate: TargetRef;
  suite: string;
  rounds: number;
  pid: number;
  /** null for sessions stored before the start time was kept. */
  pidStartTicks: number | null;
  settings: JsonObject;
  /** Why the session failed or was interrupted on purpose; null otherwise. */
  error: string | null;
  startedAt: string;
  /** When the session left `running` (done, failed or found interrupted); null while running. */
  endedAt: string | null;
}

export interface SessionQuery {
  /** At most this many sessions, newest first. */
  limit: number;
  state?: SessionState;
}

/** The sessions and their states; their samples are the SampleStore's. */
export interface SessionStore {
  /** Starts a session in state `running`. */
  createSession(input: SessionInput): Promise<number>;
  /** running -> done. Only a done session's samples count (see completedSamples). */
  finishSession(id: number): Promise<void>;
  /** running -> failed, keeping the reason. */
  failSession(id: number, error: string): Promise<void>;
  /** running -> interrupted: stopped on purpose (SIGINT, SIGTERM); like a crash, it is redone and never counts. */
  interruptSession(id: number, reason: string): Promise<void>;
  getSession(id: number): Promise<SessionRecord | undefined>;
  listSessions(query: SessionQuery): Promise<SessionRecord[]>;
  /**
   * Marks `running` sessions of this host whose process is not alive as `interrupted`; returns how many were marked.
   * A session is this host's when its settings name `runner` (host_name) or name no runner (from before fleets): a
   * pid says nothing of another host's process.
   */
  recoverInterrupted(
    runner: string,
    isAlive: (pid: number, startTicks: number | undefined) => boolean,
  ): Promise<number>;
}
