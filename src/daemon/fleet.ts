import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { fingerprintId, hostClassId, hostFingerprint, type HostFingerprint } from '../sampling/index.js';
import {
  ranBy,
  type CheckStore,
  type HostStore,
  type QueueRecord,
  type QueueStore,
  type ReleaseRecord,
  type SessionStore,
} from '../store/index.js';

/** What a daemon is in a fleet of daemons sharing one store: docs/architecture.md, "A fleet". */
export interface FleetMember {
  /** host_name: its claims and its sessions carry it. */
  hostName: string;
  /** benchmark_once_per */
  oncePer: Config['benchmark_once_per'];
  /** Whose queue rows it works: its host name, or its host class (`class:` and the class id). */
  slot: string;
  /** This host's class (hostClassId of its fingerprint). */
  classId: string;
  /** The hosts row of its fingerprint: registered when it joins. */
  hostId: number;
  claimSeconds: number;
}

export interface FleetSettings {
  hostName: string;
  oncePer: Config['benchmark_once_per'];
  claimSeconds: number;
  fingerprintTestMark: string;
  stateDir: string;
}

export function fleetSettings(config: Config): FleetSettings {
  return {
    hostName: config.host_name,
    oncePer: config.benchmark_once_per,
    claimSeconds: config.claim_seconds,
    fingerprintTestMark: config.fingerprint_test_mark,
    stateDir: config.state_dir,
  };
}

/** The slot of a host: its own name, or its class for benchmark_once_per host_class. */
export function slotOf(settings: Pick<FleetSettings, 'hostName' | 'oncePer'>, classId: string): string {
  return settings.oncePer === 'host' ? settings.hostName : `class:${classId}`;
}

/** Registers this host's fingerprint in the store (the hosts row sessions name) and says what it is in the fleet. */
export async function joinFleet(settings: FleetSettings, store: HostStore, log: Logger): Promise<FleetMember> {
  // The state folder may not exist yet (a MySQL store makes nothing there): its nearest folder is on the same device.
  const fingerprint = await hostFingerprint(nearestFolder(settings.stateDir), {
    log,
    testMark: settings.fingerprintTestMark,
  });
  const hostId = await store.upsertHost({ fingerprintId: fingerprintId(fingerprint), fingerprint });
  const classId = hostClassId(fingerprint);
  const member: FleetMember = {
    hostName: settings.hostName,
    oncePer: settings.oncePer,
    slot: slotOf(settings, classId),
    classId,
    hostId,
    claimSeconds: settings.claimSeconds,
  };
  log.info(
    { hostName: member.hostName, slot: member.slot, fingerprintId: fingerprintId(fingerprint), hostId },
    'joined the fleet: this host works the queue of its slot',
  );
  return member;
}

function nearestFolder(dir: string): string {
  let at = resolve(dir);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

/** The end of a claim taken or renewed now. */
export const claimUntil = (member: FleetMember, now = new Date()): string =>
  new Date(now.getTime() + member.claimSeconds * 1000).toISOString();

/**
 * Keeps the claims this daemon holds alive while its work runs: every third of claim_seconds, so a store that misses
 * a renewal or two loses nothing. A claim found taken over is logged; the daemon's next move of that row is refused.
 */
export function renewClaims(
  member: FleetMember,
  store: QueueStore,
  row: Pick<QueueRecord, 'releaseId' | 'tag'>,
  log: Logger,
): () => void {
  const renew = async (): Promise<void> => {
    const claim = { slot: member.slot, releaseId: row.releaseId, claimant: member.hostName, until: claimUntil(member) };
    if (await store.renewClaim(claim)) return;
    const now = await store.getQueued(member.slot, row.releaseId);
    if (now !== undefined && now.claimedBy !== null && now.claimedBy !== member.hostName)
      log.error({ tag: row.tag, claimedBy: now.claimedBy }, 'another daemon took this release over: its claim lapsed');
  };
  const timer = setInterval(
    () => void renew().catch((err: unknown) => log.warn({ error: String(err) }, 'a claim could not be renewed')),
    (member.claimSeconds * 1000) / 3,
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The checks that count as the slot's own for the queue: with benchmark_once_per host, those of sessions this host
 * ran (or of sessions from before fleets, which name no runner); with host_class, those of any host of its class.
 */
export async function checkedInSlot(
  store: CheckStore & SessionStore & HostStore,
  member: FleetMember,
  release: ReleaseRecord,
): Promise<boolean> {
  const checks = (await store.listChecks(release.upstream)).filter((c) => c.releaseId === release.id && !c.invalid);
  for (const check of checks) {
    const session = await store.getSession(check.sessionId);
    if (session === undefined) continue;
    if (member.oncePer === 'host') {
      if (ranBy(session.settings, member.hostName)) return true;
      continue;
    }
    const host = await store.getHost(session.hostId);
    if (host !== undefined && hostClassId(host.fingerprint as unknown as HostFingerprint) === member.classId)
      return true;
  }
  return false;
}
