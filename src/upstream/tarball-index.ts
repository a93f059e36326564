import { z } from 'zod';
import { TarballIndexError } from './tarball-errors.js';

/** One link of a folder listing that stays inside the folder: a file or a sub-folder, with its absolute URL. */
export interface ListingEntry {
  readonly name: string;
  readonly url: string;
  readonly folder: boolean;
}

/** A file and its sha256, from a list file or a checksums file. */
export interface ChecksumLine {
  readonly sha256: string;
  /** The file's name (a list file's URL or path, as written). */
  readonly name: string;
}

// Names from an index become file names and log fields: letters, digits and . _ + - only, never "." or "..".
export const IndexName = z
  .string()
  .regex(/^[A-Za-z0-9_+][A-Za-z0-9._+-]{0,199}$/)
  .refine((n) => n !== '.' && n !== '..');
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const HREF_RE = /<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/**
 * The entries of an HTTP folder listing (Apache's and nginx's autoindex, and pages like archive.mariadb.org):
 * every link to a direct child of the page's folder. Sort links, parent links and links elsewhere are left out;
 * names that are not plain file names are skipped as data, never followed.
 */
export function parseListing(html: string, pageUrl: string): ListingEntry[] {
  const base = new URL(pageUrl);
  const folder = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const seen = new Map<string, ListingEntry>();
  for (const m of html.matchAll(HREF_RE)) {
    const href = decodeEntities(m[1] ?? m[2] ?? m[3] ?? '');
    let target: URL;
    try {
      target = new URL(href, new URL(folder, base));
    } catch {
      continue;
    }
    if (target.origin !== base.origin || target.search !== '' || !target.pathname.startsWith(folder)) continue;
    const rest = target.pathname.slice(folder.length);
    const isFolder = rest.endsWith('/');
    const raw = isFolder ? rest.slice(0, -1) : rest;
    if (raw === '' || raw.includes('/')) continue;
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      continue;
    }
    if (!IndexName.safeParse(name).success) continue;
    target.hash = '';
    if (!seen.has(name)) seen.set(name, { name, url: target.href, folder: isFolder });
  }
  return [...seen.values()];
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&#x2f;/gi, '/')
    .replace(/&#47;/g, '/')
    .replace(/&quot;/g, '"');
}

/**
 * A checksums file in sha256sum's format ("<sha256>  <name>" or "<sha256> *<name>", one per line), or a .sha256
 * file holding one checksum with or without a name. Blank and # lines are skipped; any other line that is not a
 * checksum is an error, since a checksum read wrong would pass a file it should not.
 */
export function parseChecksums(text: string, url: string): ChecksumLine[] {
  const lines: ChecksumLine[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([0-9A-Fa-f]{64})(?:\s+\*?(\S.*))?$/.exec(line);
    const sha256 = Sha256.safeParse(m?.[1]?.toLowerCase());
    if (m === null || !sha256.success) {
      throw new TarballIndexError(
        url,
        `line ${i + 1} is not "<sha256>  <file name>": ${JSON.stringify(line.slice(0, 120))}; fix the checksums file`,
      );
    }
    lines.push({ sha256: sha256.data, name: (m[2] ?? '').trim() });
  }
  return lines;
}

/**
 * The sha256 of one file among a checksums file's lines: by its name (a path's last part), or the only unnamed line.
 */
export function checksumFor(lines: readonly ChecksumLine[], fileName: string): string | undefined {
  const named = lines.find((l) => l.name.split('/').at(-1) === fileName);
  if (named !== undefined) return named.sha256;
  return lines.length === 1 && lines[0]!.name === '' ? lines[0]!.sha256 : undefined;
}

/** A list file: "<sha256>  <URL or path>" lines; paths are relative to the list's own URL. */
export function parseListFile(text: string, listUrl: string): Array<ChecksumLine & { url: string }> {
  return parseChecksums(text, listUrl).map((line) => {
    if (line.name === '')
      throw new TarballIndexError(
        listUrl,
        `a line holds the checksum ${line.sha256} without a URL; write "<sha256>  <URL>"`,
      );
    let url: URL;
    try {
      url = new URL(line.name, listUrl);
    } catch {
      throw new TarballIndexError(
        listUrl,
        `${JSON.stringify(line.name.slice(0, 120))} is not a URL; write "<sha256>  <URL>"`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TarballIndexError(listUrl, `${JSON.stringify(line.name.slice(0, 120))} is not an http(s) URL`);
    return { ...line, name: lastPart(url), url: url.href };
  });
}

function lastPart(url: URL): string {
  const raw = url.pathname.split('/').at(-1) ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
