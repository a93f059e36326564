import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileSha256 } from '../../src/compile/index.js';
import { defaultEnv, run, type RunResult } from '../../src/exec/index.js';
import { poolUrls, sourceStanzas, type HostSources } from './apt-sources.js';
import { field, parseDeb822, sha256Files, type Stanza } from './deb822.js';
import { ticker, type Progress, type Say } from './say.js';

/** One release's upstream source tarball, fetched and checked. */
export interface FetchedSource {
  /** The upstream version, e.g. 10.11.18. */
  readonly version: string;
  /** Debian's .orig.tar.gz, as fetched. */
  readonly file: string;
  readonly sha256: string;
  /** Where its checksum comes from, for the figures: a signed index, or a .dsc from the pool. */
  readonly checkedBy: string;
}

/** A release the archives do not have or do not serve: one line, the script stops. */
export class FetchError extends Error {}

const UPDATE_TIMEOUT_MS = 15 * 60_000;
const DOWNLOAD_TIMEOUT_MS = 60 * 60_000;

/**
 * A private apt state under `dir`: its own source list (the host's archives as deb-src, plus the suites of other
 * codenames), lists and cache. The host's apt configuration and state are only read, never changed.
 */
export class PrivateApt {
  constructor(
    private readonly dir: string,
    private readonly host: HostSources,
    private readonly codenames: readonly string[],
    private readonly say: Say,
  ) {}

  /** -o options that point apt at this state instead of the host's. */
  private options(): string[] {
    return [
      ['Dir::Etc::SourceList', join(this.dir, 'sources.list')],
      ['Dir::Etc::SourceParts', join(this.dir, 'sources.list.d')],
      ['Dir::State::Lists', join(this.dir, 'lists')],
      ['Dir::Cache', join(this.dir, 'cache')],
      // Files go to root's folders: apt's _apt user could not write them, and would say so for each.
      ['APT::Sandbox::User', 'root'],
    ].flatMap(([k, v]) => ['-o', `${k}=${v}`]);
  }

  async update(): Promise<void> {
    await mkdir(join(this.dir, 'sources.list.d'), { recursive: true });
    await mkdir(join(this.dir, 'lists', 'partial'), { recursive: true });
    await mkdir(join(this.dir, 'cache', 'archives', 'partial'), { recursive: true });
    await writeFile(join(this.dir, 'sources.list'), '');
    await writeFile(join(this.dir, 'sources.list.d', 'host-deb-src.sources'), sourceStanzas(this.host, this.codenames));
    this.say(`apt: reading the source indexes of the host's archives (${this.suites().join(', ')})`);
    const result = await this.apt('apt-get', ['update'], UPDATE_TIMEOUT_MS);
    if (result.exitCode !== 0) throw new FetchError(`apt-get update failed: ${aptReason(result)}`);
  }

  private suites(): string[] {
    return sourceStanzas(this.host, this.codenames)
      .split('\n')
      .filter((l) => l.startsWith('Suites: '))
      .flatMap((l) => l.slice('Suites: '.length).split(' '));
  }

  /**
   * The release's .orig.tar.gz through `apt-get source --download-only`, which checks it against the signed index.
   * Its checksum is read from the index too, and the file's compared with it once more.
   */
  async fetchIndexed(version: string, into: string): Promise<FetchedSource> {
    const found = await this.findSource(version);
    const folder = join(into, `${found.package}_${version}`);
    const orig = found.files.find((f) => /\.orig\.tar\.(gz|xz|bz2)$/.test(f.name));
    if (orig === undefined) throw new FetchError(`mariadb ${version}: the index lists no .orig tarball for it`);
    const file = join(folder, orig.name);
    if (await hasSha(file, orig.sha256)) return { version, file, sha256: orig.sha256, checkedBy: found.suite };
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    this.say(`apt: fetching ${found.package} ${found.debianVersion} (${megabytes(orig.size)} MB)`);
    const total = found.files.reduce((sum, f) => sum + f.size, 0);
    const stop = ticker(this.say, `apt: ${found.package} ${version}`, 15_000, () => downloadProgress(folder, total));
    let result: RunResult;
    try {
      result = await this.apt(
        'apt-get',
        ['source', '--download-only', `${found.package}=${found.debianVersion}`],
        DOWNLOAD_TIMEOUT_MS,
        folder,
      );
    } finally {
      stop();
    }
    if (result.exitCode !== 0) throw new FetchError(`mariadb ${version}: ${fetchFailure(result)}`);
    if (!(await hasSha(file, orig.sha256)))
      throw new FetchError(`mariadb ${version}: ${orig.name} does not have the sha256 ${orig.sha256} its index gives`);
    return { version, file, sha256: orig.sha256, checkedBy: found.suite };
  }

  /** The source package and Debian version whose upstream version is `version`: mariadb, or mariadb-X.Y (10.5). */
  private async findSource(version: string): Promise<{
    package: string;
    debianVersion: string;
    suite: string;
    files: ReturnType<typeof sha256Files>;
  }> {
    const series = version.split('.').slice(0, 2).join('.');
    const candidates: Stanza[] = [];
    for (const pkg of ['mariadb', `mariadb-${series}`]) {
      const result = await this.apt('apt-cache', ['showsrc', pkg], UPDATE_TIMEOUT_MS);
      if (result.exitCode === 0) candidates.push(...parseDeb822(result.stdout));
    }
    const stanza = candidates.find((s) => upstreamVersion(field(s, 'Version') ?? '') === version);
    if (stanza === undefined) {
      const listed = [...new Set(candidates.map((s) => upstreamVersion(field(s, 'Version') ?? '')))].sort();
      throw new FetchError(
        `mariadb ${version}: no index of the host's archives lists it (listed: ${listed.join(', ') || 'none'}); ` +
          'name a listed version, add the codename that has it (--codename), or name its .dsc (--dsc)',
      );
    }
    return {
      package: field(stanza, 'Package')!,
      debianVersion: field(stanza, 'Version')!,
      suite: `the signed index (${field(stanza, 'Package')} ${field(stanza, 'Version')})`,
      files: sha256Files(stanza),
    };
  }

  private apt(program: string, args: readonly string[], timeoutMs: number, cwd?: string): Promise<RunResult> {
    return run({
      argv: [program, ...this.options(), ...args],
      env: { ...defaultEnv(), DEBIAN_FRONTEND: 'noninteractive' },
      timeoutMs,
      allowFailure: true,
      tailLines: 30,
      ...(cwd !== undefined ? { cwd } : {}),
    });
  }
}

/**
 * A release no index lists any more but whose .dsc Debian's pool still serves: the .dsc from the pool of one of the
 * host's archives, then the .orig tarball it names, checked against the sha256 the .dsc gives. apt's own downloader
 * (apt-helper) fetches both. Weaker than a signed index: the .dsc's own signature is not checked (that needs the
 * uploaders' keys, which Debian 12 does not install), so the checksum is only as good as the mirror that served it.
 */
export async function fetchFromPool(host: HostSources, dsc: string, into: string, say: Say): Promise<FetchedSource> {
  const name = basename(new URL(dsc, 'file:///').pathname);
  const m = /^([a-z0-9][a-z0-9+.-]+)_([^_]+)\.dsc$/.exec(name);
  if (m === null) throw new FetchError(`${dsc}: not a .dsc file name such as mariadb_10.11.14-0+deb12u2.dsc`);
  const folder = join(into, name.replace(/\.dsc$/, ''));
  await mkdir(folder, { recursive: true });
  const urls = /^https?:\/\//.test(dsc) ? [dsc] : poolUrls(host, m[1]!, name);
  const dscFile = join(folder, name);
  const from = await firstServed(urls, dscFile, undefined);
  if (from === undefined)
    throw new FetchError(`${name}: not in the pool of any of the host's archives (404 at ${urls.join(', ')})`);
  const stanza = parseDeb822(await readFile(dscFile, 'utf8'))[0];
  const version = upstreamVersion(stanza !== undefined ? (field(stanza, 'Version') ?? '') : '');
  const orig = stanza === undefined ? undefined : sha256Files(stanza).find((f) => /\.orig\.tar\.\w+$/.test(f.name));
  if (orig === undefined || version === '') throw new FetchError(`${name}: no Version or .orig tarball with a sha256`);
  const file = join(folder, orig.name);
  const checkedBy = `${name} from the pool (its checksum; the .dsc's signature is not checked)`;
  if (await hasSha(file, orig.sha256)) return { version, file, sha256: orig.sha256, checkedBy };
  say(`pool: fetching ${orig.name} (${megabytes(orig.size)} MB), checksum from ${name}`);
  const stop = ticker(say, `pool: ${orig.name}`, 15_000, () => downloadProgress(folder, orig.size));
  try {
    const origUrl = new URL(orig.name, from).href;
    if ((await firstServed([origUrl], file, orig.sha256)) === undefined)
      throw new FetchError(`mariadb ${version}: the pool does not serve ${orig.name} (404 Not Found at ${origUrl})`);
  } finally {
    stop();
  }
  if (!(await hasSha(file, orig.sha256)))
    throw new FetchError(`mariadb ${version}: ${orig.name} does not have the sha256 ${orig.sha256} ${name} gives`);
  return { version, file, sha256: orig.sha256, checkedBy };
}

/** The first URL apt-helper could fetch to `dest` (checked against sha256 when given); a 404 tries the next. */
async function firstServed(
  urls: readonly string[],
  dest: string,
  sha256: string | undefined,
): Promise<string | undefined> {
  for (const url of urls) {
    const result = await run({
      argv: [
        '/usr/lib/apt/apt-helper',
        '-o',
        'APT::Sandbox::User=root',
        'download-file',
        url,
        dest,
        ...(sha256 !== undefined ? [`SHA256:${sha256}`] : []),
      ],
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      allowFailure: true,
      tailLines: 10,
    });
    // apt-helper exits 0 after "E: Failed to fetch ... 404": the file tells.
    if (
      result.exitCode === 0 &&
      (await stat(dest).then(
        (s) => s.size > 0,
        () => false,
      ))
    )
      return url;
    if (!/\b404\b/.test(result.stderr)) throw new FetchError(`${url}: ${aptReason(result)}`);
  }
  return undefined;
}

/** 1:10.11.14-0+deb12u2 -> 10.11.14 (no epoch, no Debian revision). */
export function upstreamVersion(debianVersion: string): string {
  return debianVersion.replace(/^\d+:/, '').replace(/-[^-]*$/, '');
}

async function hasSha(file: string, sha256: string): Promise<boolean> {
  const exists = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  return exists && (await fileSha256(file)) === sha256;
}

async function downloadProgress(folder: string, total: number): Promise<Progress> {
  let bytes = 0;
  for (const name of await readdir(folder, { recursive: true }).catch(() => [] as string[])) {
    bytes += await stat(join(folder, name)).then(
      (s) => (s.isFile() ? s.size : 0),
      () => 0,
    );
  }
  return { done: bytes / 1e6, total: total / 1e6, unit: 'MB' };
}

/** apt's one line on a fetch that failed: a 404 says which file the mirror does not serve. */
function fetchFailure(result: RunResult): string {
  const text = `${result.stderr}\n${result.stdout}`;
  const notFound = /Failed to fetch (\S+)\s+404\s+Not Found/.exec(text);
  if (notFound !== null)
    return (
      `the mirror does not serve ${decodeURIComponent(basename(notFound[1]!))} (404 Not Found at ${notFound[1]}), ` +
      'though the index lists it'
    );
  return aptReason(result);
}

function aptReason(result: RunResult): string {
  const lines = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim());
  return lines.find((l) => l.startsWith('E:')) ?? lines.filter((l) => l !== '').at(-1) ?? `exit ${result.exitCode}`;
}

function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
