/** The hosts sessions ran on, each known by the fingerprint that keeps results of different hardware apart. */
import type { JsonObject } from './json-object.js';

export interface HostInput {
  /** Stable id derived from the fingerprint: results from different ids are never compared. */
  fingerprintId: string;
  fingerprint: object;
}

export interface HostRecord {
  id: number;
  fingerprintId: string;
  fingerprint: JsonObject;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** The hosts: written once per session, read to name a host and to keep fingerprints apart. */
export interface HostStore {
  /** Inserts the host or refreshes its fingerprint and last-seen time; returns its id either way. */
  upsertHost(input: HostInput): Promise<number>;
  getHost(id: number): Promise<HostRecord | undefined>;
}
