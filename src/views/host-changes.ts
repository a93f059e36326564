import type { HostChange } from '../model/index.js';
import type { HostRecord, HostStore, SessionStore } from '../store/index.js';

/** Facts of the inventory say how a host was judged, not which host it is: they never count as a change. */
const NOT_FINGERPRINT = new Set(['inventory']);

/**
 * The fingerprint changes that led to the shown host: every host of the series' sessions whose newest session names
 * the same runner (host_name), oldest first up to the shown one, and between each two the facts that differ. A
 * kernel or compiler upgrade makes a new fingerprint, so its results start a history of their own; this says so and
 * why, instead of the older results just dropping out. Sessions that name no runner (from before fleets) are not
 * grouped: nothing says which machine they ran on.
 */
export async function hostChanges(
  store: Pick<HostStore, 'getHost'> & Pick<SessionStore, 'getSession'>,
  newestSessionOfHost: ReadonlyMap<number, number>,
  shownHostId: number,
): Promise<HostChange[]> {
  const runs: Array<{ host: HostRecord; runner: string }> = [];
  for (const [hostId, sessionId] of newestSessionOfHost) {
    const [host, session] = await Promise.all([store.getHost(hostId), store.getSession(sessionId)]);
    const runner = session?.settings['runner'];
    if (host !== undefined && typeof runner === 'string') runs.push({ host, runner });
  }
  const shown = runs.find((r) => r.host.id === shownHostId);
  if (shown === undefined) return [];
  const machine = runs
    .filter((r) => r.runner === shown.runner)
    .sort((a, b) => a.host.firstSeenAt.localeCompare(b.host.firstSeenAt));
  // The changes that led to the shown host; a later fingerprint is another history, with its own report.
  const upTo = machine.indexOf(shown);
  return machine.slice(1, upTo + 1).map((run, i) => ({
    runner: shown.runner,
    at: run.host.firstSeenAt,
    from: machine[i]!.host.fingerprintId,
    to: run.host.fingerprintId,
    changed: changedFacts(machine[i]!.host.fingerprint, run.host.fingerprint),
  }));
}

/** The facts whose values differ between two fingerprints, by name; a fact one lacks reads as "none". */
export function changedFacts(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): HostChange['changed'] {
  const facts = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => !NOT_FINGERPRINT.has(f));
  const text = (value: unknown): string => (value === undefined ? 'none' : String(value));
  return facts
    .sort()
    .filter((fact) => text(before[fact]) !== text(after[fact]))
    .map((fact) => ({ fact, from: text(before[fact]), to: text(after[fact]) }));
}
