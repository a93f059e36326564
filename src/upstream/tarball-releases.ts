import type { Logger } from '../log/index.js';
import {
  parseSourceTarballName,
  parseTarballName,
  TarballNameError,
  type Flavor,
  type Version,
} from '../version/index.js';
import { globToRegExp } from './glob.js';
import { fetchIndexText, type HttpOptions } from './http-fetch.js';
import type { RemoteTag } from './ls-remote.js';
import { releaseTagFor } from './release-tag.js';
import { selectReleases, type Release } from './select.js';
import { TarballNotListedError } from './tarball-errors.js';
import {
  checksumFor,
  IndexName,
  parseChecksums,
  parseListFile,
  parseListing,
  type ListingEntry,
} from './tarball-index.js';
import type { Upstream } from './upstream.js';

/** One release's tarball as the index lists it. */
export interface TarballFile {
  readonly tag: string;
  readonly url: string;
  readonly fileName: string;
  /** undefined: the index gives none, and the release is not used. */
  readonly sha256: string | undefined;
}

export interface TarballIndexOptions {
  signal?: AbortSignal | undefined;
  log: Logger;
}

const TIMEOUT_MS = 30_000;
// A version folder's sub-folders (archive.mariadb.org: bintar-linux-systemd-x86_64/, source/, yum/ ...) that are
// looked into for the tarball, at most.
const MAX_SUBFOLDERS = 40;
const CHECKSUM_FILES = ['sha256sums.txt', 'SHA256SUMS', 'sha256sum.txt', 'SHA256SUMS.txt'];

/**
 * The store keeps a 40-hex commit per release; a tarball release's is the first 40 hex digits of its sha256 when it
 * was discovered. A known release is not looked up again at discovery; its download is checked against the index's
 * checksum at that time.
 */
export function tarballCommit(sha256: string): string {
  return sha256.slice(0, 40);
}

/**
 * The releases of a tarball upstream: the index is read (a folder listing: one page; a list file: one file), its
 * candidates go through the same flavor, series and filter rules as git tags (selectReleases), and each selected
 * release not in `known` (tag -> commit, from the store) is located for its checksum. A new release the index gives
 * no sha256 for is left out with one warning, and looked at again next time.
 */
export async function discoverTarballReleases(
  upstream: Upstream,
  known: ReadonlyMap<string, string>,
  opts: TarballIndexOptions,
): Promise<{ releases: Release[]; tags: RemoteTag[] }> {
  const candidates = await readCandidates(upstream, opts);
  const tags = [...candidates.keys()].map((tag) => ({ tag, commit: known.get(tag) ?? '0'.repeat(40) }));
  const releases: Release[] = [];
  for (const release of selectReleases(upstream, tags, opts.log)) {
    const commit = known.get(release.tag);
    if (commit !== undefined) {
      releases.push({ ...release, commit });
      continue;
    }
    const file = await candidates.get(release.tag)!();
    if (file?.sha256 === undefined) {
      opts.log.warn(
        { upstream: upstream.name, tag: release.tag, url: file?.url },
        file === undefined
          ? 'no tarball found for this release in the index: left out'
          : 'the index gives no sha256 for this tarball: left out, never downloaded',
      );
      continue;
    }
    releases.push({ ...release, commit: tarballCommit(file.sha256) });
  }
  return { releases, tags };
}

/** Where one release's tarball is now, with its sha256: read from the index again, right before a download. */
export async function locateTarball(
  upstream: Upstream,
  tag: string,
  opts: TarballIndexOptions,
): Promise<TarballFile & { sha256: string }> {
  const locate = (await readCandidates(upstream, opts)).get(tag);
  const file = await locate?.();
  if (file === undefined)
    throw new TarballNotListedError(
      upstream.remote,
      tag,
      "is no longer in the index (or has no tarball matching the upstream's file pattern)",
    );
  if (file.sha256 === undefined)
    throw new TarballNotListedError(
      upstream.remote,
      tag,
      `has no sha256 in the index (${file.url}): it is never downloaded without one`,
    );
  return { ...file, sha256: file.sha256 };
}

type Locate = () => Promise<TarballFile | undefined>;

/** The index's releases by tag, each with the (lazy) way to find its tarball and checksum. */
async function readCandidates(upstream: Upstream, opts: TarballIndexOptions): Promise<Map<string, Locate>> {
  const http = { signal: opts.signal, timeoutMs: TIMEOUT_MS };
  const index = upstream.remote;
  const text = await fetchIndexText(index, http);
  const candidates = new Map<string, Locate>();
  if (!new URL(index).pathname.endsWith('/')) {
    for (const line of parseListFile(text, index)) {
      const tag = tarballTag(upstream, line.name, opts.log);
      if (tag !== undefined && !candidates.has(tag))
        candidates.set(tag, () => Promise.resolve({ tag, url: line.url, fileName: line.name, sha256: line.sha256 }));
    }
    return candidates;
  }
  const entries = parseListing(text, index);
  // A flat listing: the tarballs sit in the index's folder itself.
  for (const file of tarballsIn(upstream, entries, opts.log)) {
    if (!candidates.has(file.tag)) candidates.set(file.tag, () => withChecksum(file, entries, http));
  }
  // A folder per version (archive.mariadb.org/mariadb-10.11.9/): its name is the release tag. Other folders are
  // candidates too, and selectReleases skips them as tags that are not releases; only selected ones are opened.
  for (const folder of entries.filter((e) => e.folder && !candidates.has(e.name))) {
    candidates.set(folder.name, () => findInFolder(upstream, folder, http, opts.log));
  }
  return candidates;
}

interface Found extends ListingEntry {
  readonly tag: string;
  readonly version: Version;
}

/** The tag a tarball's file name names, when it is a tarball of the upstream's flavor that its file pattern matches. */
function tarballTag(upstream: Upstream, fileName: string, log: Logger): string | undefined {
  return parseFile(upstream, fileName, log)?.tag;
}

function parseFile(
  upstream: Upstream,
  fileName: string,
  log: Logger,
): { tag: string; version: Version; flavor: Flavor } | undefined {
  if (!IndexName.safeParse(fileName).success) return undefined;
  if (upstream.fileGlob !== undefined && !globToRegExp(upstream.fileGlob).test(fileName)) return undefined;
  try {
    // A source upstream's index lists the same release's binaries beside its source: only the source names count.
    const { flavor, version } = (upstream.kind === 'source' ? parseSourceTarballName : parseTarballName)(fileName);
    if (flavor !== upstream.flavor) return undefined;
    return { tag: releaseTagFor(flavor, version), version, flavor };
  } catch (err) {
    if (!(err instanceof TarballNameError)) throw err;
    log.child({ component: 'upstream' }).trace({ upstream: upstream.name, file: fileName }, 'not a tarball name');
    return undefined;
  }
}

/** The listing's tarballs of the upstream, by name so the pick among variants is stable. */
function tarballsIn(upstream: Upstream, entries: readonly ListingEntry[], log: Logger): Found[] {
  const found: Found[] = [];
  for (const entry of entries.filter((e) => !e.folder).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const parsed = parseFile(upstream, entry.name, log);
    if (parsed !== undefined) found.push({ ...entry, tag: parsed.tag, version: parsed.version });
  }
  return found;
}

/** A version folder: the tarball in it, else in its first sub-folder that holds one (bintar-linux-systemd-x86_64/). */
async function findInFolder(
  upstream: Upstream,
  folder: ListingEntry,
  http: HttpOptions,
  log: Logger,
): Promise<TarballFile | undefined> {
  const entries = parseListing(await fetchIndexText(folder.url, http), folder.url);
  const here = tarballsIn(upstream, entries, log).find((f) => f.tag === folder.name);
  if (here !== undefined) return withChecksum(here, entries, http);
  for (const sub of subfoldersToOpen(upstream, entries)) {
    const subEntries = parseListing(await fetchIndexText(sub.url, http), sub.url);
    const file = tarballsIn(upstream, subEntries, log).find((f) => f.tag === folder.name);
    if (file !== undefined) return withChecksum(file, subEntries, http);
  }
  return undefined;
}

/** A version folder's sub-folders, source/ first for a source upstream (archive.mariadb.org keeps the source there). */
function subfoldersToOpen(upstream: Upstream, entries: readonly ListingEntry[]): ListingEntry[] {
  const folders = entries.filter((e) => e.folder);
  if (upstream.kind === 'source') folders.sort((a, b) => Number(b.name === 'source') - Number(a.name === 'source'));
  return folders.slice(0, MAX_SUBFOLDERS);
}

/** The file's sha256 from its folder's checksums file (sha256sums.txt) or from <file>.sha256 beside it. */
async function withChecksum(file: Found, entries: readonly ListingEntry[], http: HttpOptions): Promise<TarballFile> {
  const base = { tag: file.tag, url: file.url, fileName: file.name };
  const sums =
    entries.find((e) => !e.folder && CHECKSUM_FILES.includes(e.name)) ??
    entries.find((e) => !e.folder && e.name === `${file.name}.sha256`);
  if (sums === undefined) return { ...base, sha256: undefined };
  const sha256 = checksumFor(parseChecksums(await fetchIndexText(sums.url, http), sums.url), file.name);
  if (sha256 !== undefined || sums.name.endsWith('.sha256')) return { ...base, sha256 };
  // sha256sums.txt without this file: a .sha256 beside it may still have it.
  const single = entries.find((e) => !e.folder && e.name === `${file.name}.sha256`);
  if (single === undefined) return { ...base, sha256: undefined };
  return {
    ...base,
    sha256: checksumFor(parseChecksums(await fetchIndexText(single.url, http), single.url), file.name),
  };
}
