import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { field, parseDeb822 } from './deb822.js';

/** One archive the host's apt reads binary packages from: where, which suites and components, its key. */
export interface AptSource {
  readonly uris: readonly string[];
  readonly suites: readonly string[];
  readonly components: readonly string[];
  /** A keyring path, or an inline key block, as the host wrote it; undefined: apt's default keyrings. */
  readonly signedBy?: string;
}

/** The host's apt configuration: the files apt itself reads (sources.list, sources.list.d/*.list and *.sources). */
export interface HostSources {
  readonly codename: string;
  readonly sources: readonly AptSource[];
}

export class AptSourcesError extends Error {}

/**
 * The archives of the host's own `deb` lines (deb822 .sources files and one-line .list files). Only archives the host
 * already trusts are used, so no host name comes from anywhere but the host's configuration.
 */
export async function readHostSources(etcApt = '/etc/apt', osRelease = '/etc/os-release'): Promise<HostSources> {
  const sources: AptSource[] = [];
  const list = await readFile(join(etcApt, 'sources.list'), 'utf8').catch(() => '');
  sources.push(...parseOneLineSources(list));
  const parts = (await readdir(join(etcApt, 'sources.list.d')).catch(() => [] as string[])).sort();
  for (const name of parts) {
    const text = await readFile(join(etcApt, 'sources.list.d', name), 'utf8').catch(() => '');
    if (name.endsWith('.sources')) sources.push(...parseDeb822Sources(text));
    else if (name.endsWith('.list')) sources.push(...parseOneLineSources(text));
  }
  if (sources.length === 0)
    throw new AptSourcesError(
      `no "deb" archive in ${etcApt}/sources.list or ${etcApt}/sources.list.d: the source tarballs come from the ` +
        "host's own Debian archives; add one (see sources.list(5))",
    );
  const release = await readFile(osRelease, 'utf8').catch(() => '');
  const codename = /^VERSION_CODENAME=(\S+)$/m.exec(release)?.[1]?.replace(/"/g, '') ?? sources[0]!.suites[0]!;
  return { codename, sources };
}

export function parseDeb822Sources(text: string): AptSource[] {
  const out: AptSource[] = [];
  for (const stanza of parseDeb822(text)) {
    const types = (field(stanza, 'Types') ?? '').split(/\s+/);
    if (!types.includes('deb') || /^no$/i.test(field(stanza, 'Enabled') ?? 'yes')) continue;
    const signedBy = field(stanza, 'Signed-By');
    out.push({
      uris: words(field(stanza, 'URIs')),
      suites: words(field(stanza, 'Suites')),
      components: words(field(stanza, 'Components')),
      ...(signedBy !== undefined ? { signedBy } : {}),
    });
  }
  return out.filter((s) => s.uris.length > 0 && s.suites.length > 0);
}

/** "deb [signed-by=/usr/share/keyrings/x.gpg] http://host/debian bookworm main" lines. */
export function parseOneLineSources(text: string): AptSource[] {
  const out: AptSource[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^deb\s+(?:\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (m === null) continue;
    const signedBy = /(?:^|\s)signed-by=(\S+)/.exec(m[1] ?? '')?.[1];
    out.push({
      uris: [m[2]!],
      suites: [m[3]!],
      components: words(m[4]),
      ...(signedBy !== undefined ? { signedBy } : {}),
    });
  }
  return out;
}

/**
 * The deb-src archives of the host's deb lines, written as one deb822 file for a private apt state. Each extra
 * codename (bullseye for 10.5, trixie for 11.8) adds the suites of the host's codename renamed to it: bookworm,
 * bookworm-updates and bookworm-security become bullseye, bullseye-updates and bullseye-security, on the same
 * archives and keys.
 */
export function sourceStanzas(host: HostSources, codenames: readonly string[]): string {
  const stanzas = host.sources.map((source) => {
    const suites = [...source.suites];
    for (const codename of codenames) {
      for (const suite of source.suites) {
        const renamed = suite === host.codename || suite.startsWith(`${host.codename}-`);
        const other = codename + suite.slice(host.codename.length);
        if (renamed && !suites.includes(other)) suites.push(other);
      }
    }
    return [
      'Types: deb-src',
      `URIs: ${source.uris.join(' ')}`,
      `Suites: ${suites.join(' ')}`,
      `Components: ${source.components.join(' ')}`,
      ...(source.signedBy !== undefined ? [`Signed-By: ${source.signedBy.split('\n').join('\n ')}`] : []),
    ].join('\n');
  });
  return `${stanzas.join('\n\n')}\n`;
}

/**
 * Where a source package's files lie in each of the host's archives (Debian's pool layout): pool/<component>/<l>/<pkg>/
 * with <l> its first letter (lib + the fourth for libraries), and pool/updates/... on a security archive.
 */
export function poolUrls(host: HostSources, sourcePackage: string, file: string): string[] {
  const letter = sourcePackage.startsWith('lib') ? sourcePackage.slice(0, 4) : sourcePackage[0]!;
  const urls: string[] = [];
  for (const source of host.sources) {
    for (const uri of source.uris) {
      const base = uri.replace(/\/+$/, '');
      const security = source.suites.every((s) => s.endsWith('-security'));
      for (const component of source.components) {
        const pool = security ? `pool/updates/${component}` : `pool/${component}`;
        const url = `${base}/${pool}/${letter}/${sourcePackage}/${file}`;
        if (!urls.includes(url)) urls.push(url);
      }
    }
  }
  return urls;
}

function words(text: string | undefined): string[] {
  return (text ?? '').split(/\s+/).filter((w) => w !== '');
}
