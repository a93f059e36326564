import { z } from 'zod';
import type { ReleaseSampleRecord } from '../analysis/index.js';
import { InputError } from '../errors.js';
import type { HostColumn, HostsHistoryView } from '../model/index.js';
import type { HostRecord, ReleaseRecord } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import { seriesHistory, seriesReleaseSamples, type HistoryOptions, type HistoryStores } from './history.js';

export type HostsHistoryOptions = Pick<HistoryOptions, 'base' | 'verdicts'>;

/**
 * A series' history on every host that measured it, side by side. Each host's column is that host's own history
 * (seriesHistory with the host named, imports left out: they were measured elsewhere), so its figures are relative to
 * the base measured on the same host. The base is the one named (--base, the upstream's base:), else the oldest
 * version every host measured, else the oldest of any: a host that did not measure it gets an empty column.
 */
export async function seriesHostsHistory(
  store: HistoryStores,
  upstream: Upstream,
  options: HostsHistoryOptions = {},
  now = new Date(),
): Promise<HostsHistoryView> {
  const [releases, samples] = await Promise.all([
    store.listReleases(upstream.name),
    seriesReleaseSamples(store, upstream.name),
  ]);
  const hosts = await hostsOf(store, samples);
  if (hosts.length === 0)
    throw new InputError(
      `series ${JSON.stringify(upstream.name)} has no results measured on any host yet: check a release ` +
        `(qpswatch check TAG) on each host first`,
    );
  const base = chooseBase(upstream, releases, samples, hosts, options.base);
  const columns: HostColumn[] = [];
  for (const host of hosts) {
    const measured = samples.some((s) => s.hostId === host.id && s.releaseId === base.id);
    const history = measured
      ? await seriesHistory(
          store,
          upstream,
          { ...options, base: base.version, host: host.fingerprintId, imported: false },
          now,
        )
      : null;
    columns.push({ fingerprintId: host.fingerprintId, inventory: hostInventory(host.fingerprint), history });
  }
  const measuredIds = new Set(samples.map((s) => s.releaseId));
  return {
    series: upstream.name,
    flavor: upstream.flavor,
    base: base.version,
    versions: byVersion(releases.filter((r) => measuredIds.has(r.id))).map((r) => r.version),
    hosts: columns,
    generatedAt: now.toISOString(),
  };
}

/** The hosts with results in the series, in the order they were first recorded. */
async function hostsOf(store: HistoryStores, samples: readonly ReleaseSampleRecord[]): Promise<HostRecord[]> {
  const ids = [...new Set(samples.map((s) => s.hostId))].sort((a, b) => a - b);
  return (await Promise.all(ids.map((id) => store.getHost(id)))).flatMap((h) => (h === undefined ? [] : [h]));
}

const byVersion = (releases: readonly ReleaseRecord[]): ReleaseRecord[] =>
  [...releases].sort((a, b) => a.versionKey.localeCompare(b.versionKey));

function chooseBase(
  upstream: Upstream,
  releases: readonly ReleaseRecord[],
  samples: readonly ReleaseSampleRecord[],
  hosts: readonly HostRecord[],
  named: string | undefined,
): ReleaseRecord {
  const measured = byVersion(releases.filter((r) => samples.some((s) => s.releaseId === r.id)));
  const wanted = named ?? upstream.base?.text;
  if (wanted !== undefined) {
    const found = measured.find((r) => r.version === wanted || r.tag === wanted);
    if (found === undefined)
      throw new InputError(
        `base ${JSON.stringify(wanted)} has no results on any host in series ${upstream.name}: use one of ` +
          `${measured.map((r) => r.version).join(', ')} (--base, or base: in the upstream's config)`,
      );
    return found;
  }
  // Results under a memory setting alone do not make a base, as in the one-host history.
  const plain = samples.filter((s) => s.memory === undefined);
  const onAll = measured.filter((r) =>
    hosts.every((h) => plain.some((s) => s.hostId === h.id && s.releaseId === r.id)),
  );
  return onAll[0] ?? measured.find((r) => plain.some((s) => s.releaseId === r.id)) ?? measured[0]!;
}

/** The facts of a stored fingerprint a person tells machines apart by; each may be missing from an old record. */
const InventoryFacts = z.object({
  cpuModel: z.string().optional().catch(undefined),
  sockets: z.number().int().positive().optional().catch(undefined),
  cores: z.number().int().positive().optional().catch(undefined),
  threads: z.number().int().positive().optional().catch(undefined),
  memoryBytes: z.number().positive().optional().catch(undefined),
});

/** "AMD EPYC 7B13, 2 sockets, 48 cores, 96 threads, 256 GiB": what the fingerprint says, in that order. */
export function hostInventory(fingerprint: object): string {
  const parsed = InventoryFacts.safeParse(fingerprint);
  if (!parsed.success) return 'fingerprint without inventory';
  const { cpuModel, sockets, cores, threads, memoryBytes } = parsed.data;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [
    cpuModel,
    sockets === undefined ? undefined : plural(sockets, 'socket'),
    cores === undefined ? undefined : plural(cores, 'core'),
    threads === undefined || threads === cores ? undefined : plural(threads, 'thread'),
    memoryBytes === undefined ? undefined : `${formatGiB(memoryBytes)} GiB`,
  ].filter((p): p is string => p !== undefined && p !== '');
  return parts.length === 0 ? 'fingerprint without inventory' : parts.join(', ');
}

function formatGiB(bytes: number): string {
  const gib = bytes / 2 ** 30;
  return gib >= 10 ? gib.toFixed(0) : gib.toFixed(1);
}
