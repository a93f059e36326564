// npm run real-releases -- [options]: real MariaDB releases, built from their source tarballs, end to end (issue 31).
// Fetches the releases' tarballs from the host's own Debian archives, serves them on loopback as an archive laid out
// like archive.mariadb.org, and runs discover, build, check and report as the daemon would, printing its figures.
import { copyFile, link, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import { InputError } from '../src/errors.js';
import { projectRoot } from '../src/paths.js';
import { fetchFromPool, FetchError, PrivateApt, type FetchedSource } from './real-releases/apt-fetch.js';
import { AptSourcesError, readHostSources } from './real-releases/apt-sources.js';
import { startIndexServer, type IndexServer } from './real-releases/archive-server.js';
import { ccacheCounters, ccacheDelta, diskBytes, mb } from './real-releases/figures.js';
import { qpswatch, type QpswatchResult } from './real-releases/qpswatch-run.js';
import { minutes, sayOn } from './real-releases/say.js';

const HELP = `Usage: npm run real-releases -- [options]

Builds real MariaDB releases from their source tarballs with qpswatch, as a new user would, and checks them:
  1. fetch: each release's tarball (Debian's .orig.tar.gz is MariaDB's own source tarball) through a private apt
     state made from the host's own archives as deb-src lines: apt-get source --download-only, checked against the
     signed index; or, for a release no index lists any more, its .dsc from Debian's pool (--dsc), the tarball
     checked against the .dsc's sha256 (weaker: the .dsc's signature is not checked);
  2. serve: an archive laid out like archive.mariadb.org (mariadb-X.Y.Z/source/ with sha256sums.txt) on 127.0.0.1;
  3. qpswatch discover, then qpswatch build of each release in the order named (an upstream of kind source, build
     profile mariadb-rel), each with its minutes, ccache hit rate and the disk used after it;
  4. qpswatch check of each release in version order (the first is the series' first last good), and check
     --against-base for a release the chain of checks does not bring to the base; qpswatch report against the
     oldest release;
  5. a real build failure: one more upstream builds the newest release with a C flag that breaks its build;
     qpswatch once fails it alone, and status and the email (an .eml in the outbox) show it in one line.
Prints an ETA for each long step and the figures at the end (also in WORK/figures.json). Not part of CI: a cold
build of a release takes 20-60 minutes on a small host. Safe to run again: what is fetched and built stays.

Options:
  --release VERSION  a release an index of the host's archives lists (repeat; built in the order named)
  --dsc NAME|URL     a release by its .dsc in Debian's pool, e.g. mariadb_10.11.14-0+deb12u2.dsc (repeat)
  --codename NAME    also read the source indexes of this Debian release (repeat): bullseye has 10.5, trixie 11.8
  --work DIR         where everything goes (default /var/tmp/qpswatch-real-releases)
  --skip PHASE       leave out fetch (use what WORK holds), build, check, report or failure (repeat)
Without --release and --dsc: --release 10.11.18 --release 10.11.19 --codename bullseye --release 10.5.29.
On a mirror that no longer serves some of them (a 404 is one line), name others, e.g.
  --dsc mariadb_10.11.14-0+deb12u2.dsc --release 10.11.18 --codename bullseye --release 10.5.23
Exit codes: 0 done; 1 a step failed (the line says which); 2 bad usage.
`;

const PHASES = ['fetch', 'build', 'check', 'report', 'failure'] as const;
type Phase = (typeof PHASES)[number];
const UPSTREAM = 'mariadb';
const BROKEN_UPSTREAM = 'mariadb-broken';
const BROKEN_PROFILE = 'mariadb-rel-broken';
// gcc refuses an option it does not know: cmake's first check of the C compiler (project()) fails with it, seconds
// into the configure, as a real build fails: a CMake error and the compiler's line in the build log.
const BREAKING_FLAG = '-DCMAKE_C_FLAGS=-fno-such-option-qpswatch';

/** A release to fetch: by version from an index, or by its .dsc from the pool. */
type Wanted = { kind: 'release'; version: string } | { kind: 'dsc'; dsc: string };

interface Options {
  wanted: Wanted[];
  codenames: string[];
  work: string;
  skip: Set<Phase>;
}

interface BuildFigures {
  tag: string;
  ok: boolean;
  minutes: number;
  ccacheHits: number;
  ccacheMisses: number;
  ccacheHitRate: number | null;
  stateBytes: number;
  cacheBytes: number;
  installBytes: number;
  installDir: string;
}

class RealReleasesUsageError extends InputError {}
class StepError extends Error {}

const say = sayOn((text) => process.stdout.write(text));

function parseOptions(argv: readonly string[]): Options | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        release: { type: 'string', multiple: true },
        dsc: { type: 'string', multiple: true },
        codename: { type: 'string', multiple: true },
        work: { type: 'string' },
        skip: { type: 'string', multiple: true },
        help: { type: 'boolean' },
      },
      strict: true,
      tokens: true,
    });
  } catch (err) {
    throw new RealReleasesUsageError(`${(err as Error).message}; see --help`);
  }
  if (parsed.values.help === true) return 'help';
  // The order named on the command line is the build order (the first build of a series is the cold one).
  const wanted: Wanted[] = [];
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    if (token.name === 'release') {
      if (!/^\d+\.\d+\.\d+$/.test(token.value))
        throw new RealReleasesUsageError(
          `--release ${JSON.stringify(token.value)}: expected a version such as 10.11.18`,
        );
      wanted.push({ kind: 'release', version: token.value });
    }
    if (token.name === 'dsc') wanted.push({ kind: 'dsc', dsc: token.value });
  }
  const codenames = parsed.values.codename ?? [];
  for (const c of codenames)
    if (!/^[a-z][a-z0-9-]{1,30}$/.test(c))
      throw new RealReleasesUsageError(`--codename ${JSON.stringify(c)}: expected a Debian codename such as bullseye`);
  const skip = new Set<Phase>();
  for (const s of parsed.values.skip ?? []) {
    if (!(PHASES as readonly string[]).includes(s))
      throw new RealReleasesUsageError(`--skip ${JSON.stringify(s)}: expected one of ${PHASES.join(', ')}`);
    skip.add(s as Phase);
  }
  const defaults = wanted.length === 0;
  return {
    wanted: defaults
      ? ['10.11.18', '10.11.19', '10.5.29'].map((version) => ({ kind: 'release' as const, version }))
      : wanted,
    codenames: defaults && codenames.length === 0 ? ['bullseye'] : codenames,
    work: parsed.values.work ?? '/var/tmp/qpswatch-real-releases',
    skip,
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  await checkWorkFolder(options.work);
  const started = Date.now();
  const sources = await fetchPhase(options);
  if (sources.length === 0) throw new StepError('no release to build: name one with --release or --dsc');
  const site = await startIndexServer(await layOutArchive(options.work, sources));
  say(`serving the archive of ${sources.length} release(s) at ${site.url}`);
  try {
    const config = await writeConfig(options.work, site, sources);
    const run = (...args: string[]): Promise<QpswatchResult> => qpswatch(config, args, say);
    must(await run('discover'), 'qpswatch discover');
    const builds = options.skip.has('build') ? [] : await buildPhase(options.work, sources, run);
    const checks = options.skip.has('check') ? [] : await checkPhase(sources, run);
    if (!options.skip.has('report')) await reportPhase(sources, run);
    const failure = options.skip.has('failure') ? undefined : await failurePhase(options.work, run);
    const figures = {
      host: 'this host, shared with other work while measured (figures are noisy)',
      releases: sources.map((s) => ({ version: s.version, sha256: s.sha256, checkedBy: s.checkedBy })),
      builds,
      checks,
      failure,
      totalMinutes: (Date.now() - started) / 60_000,
    };
    await writeFile(join(options.work, 'figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
    printFigures(builds, checks, failure, figures.totalMinutes, options.work);
    return builds.every((b) => b.ok) ? 0 : 1;
  } finally {
    await site.close();
  }
}

/** The work folder holds what root builds and runs: it must not be a link or another user's folder. */
async function checkWorkFolder(work: string): Promise<void> {
  const info = await lstat(work).catch(() => undefined);
  if (info === undefined) {
    await mkdir(work, { recursive: true, mode: 0o755 });
    return;
  }
  if (!info.isDirectory() || info.isSymbolicLink() || info.uid !== (process.getuid?.() ?? 0))
    throw new RealReleasesUsageError(
      `${work} is not a folder of this user's (a link, a file, or another user's): another user may have made it; ` +
        'remove it or name another with --work',
    );
}

async function fetchPhase(options: Options): Promise<FetchedSource[]> {
  const into = join(options.work, 'fetched');
  if (options.skip.has('fetch')) return readFetched(options.work);
  const host = await readHostSources();
  say(`host: Debian ${host.codename}; archives ${host.sources.flatMap((s) => s.uris).join(', ')}`);
  const apt = new PrivateApt(join(options.work, 'apt'), host, options.codenames, say);
  if (options.wanted.some((w) => w.kind === 'release')) await apt.update();
  const fetched: FetchedSource[] = [];
  for (const wanted of options.wanted) {
    const source =
      wanted.kind === 'release'
        ? await apt.fetchIndexed(wanted.version, into)
        : await fetchFromPool(host, wanted.dsc, into, say);
    say(`fetched mariadb ${source.version}: sha256 ${source.sha256}, checked by ${source.checkedBy}`);
    fetched.push(source);
  }
  await writeFile(join(options.work, 'fetched.json'), `${JSON.stringify(fetched, null, 2)}\n`);
  return fetched;
}

async function readFetched(work: string): Promise<FetchedSource[]> {
  const text = await readFile(join(work, 'fetched.json'), 'utf8').catch(() => undefined);
  if (text === undefined) throw new StepError(`--skip fetch: ${work}/fetched.json is missing; run the fetch once`);
  return JSON.parse(text) as FetchedSource[];
}

/** archive.mariadb.org's layout: mariadb-X.Y.Z/source/mariadb-X.Y.Z.tar.gz and its sha256sums.txt. */
async function layOutArchive(work: string, sources: readonly FetchedSource[]): Promise<string> {
  const archive = join(work, 'archive');
  await rm(archive, { recursive: true, force: true });
  for (const s of sources) {
    const folder = join(archive, `mariadb-${s.version}`, 'source');
    const name = `mariadb-${s.version}.tar.gz`;
    await mkdir(folder, { recursive: true });
    // A second name for the file, not a copy of 115 MB; a copy where the folders are on different filesystems.
    await link(s.file, join(folder, name)).catch(() => copyFile(s.file, join(folder, name)));
    await writeFile(join(folder, 'sha256sums.txt'), `${s.sha256}  ${name}\n`);
  }
  return archive;
}

/**
 * The config of a new user's first try: an upstream of kind source over the served archive, the shipped mariadb-rel
 * profile and relaxed server profile, the quick suite; state and cache under WORK; emails as .eml files in
 * WORK/outbox. The build profiles are the shipped ones, plus the broken variant the failure step uses.
 */
async function writeConfig(work: string, site: IndexServer, sources: readonly FetchedSource[]): Promise<string> {
  const profiles = join(work, 'build-profiles');
  await mkdir(profiles, { recursive: true });
  const shipped = join(projectRoot, 'config', 'build-profiles');
  for (const name of (await readdir(shipped)).filter((n) => n.endsWith('.yaml')))
    await copyFile(join(shipped, name), join(profiles, name));
  const rel = parse(await readFile(join(shipped, 'mariadb-rel.yaml'), 'utf8')) as Record<string, unknown>;
  rel['description'] = 'mariadb-rel with a C flag gcc does not know: a build that fails (npm run real-releases)';
  rel['cmake_flags'] = [...(rel['cmake_flags'] as string[]), BREAKING_FLAG];
  await writeFile(join(profiles, `${BROKEN_PROFILE}.yaml`), stringify(rel));

  const versions = sources.map((s) => s.version).sort(byVersion);
  const oldest = versions[0]!;
  const newest = versions.at(-1)!;
  const config = {
    state_dir: join(work, 'state'),
    cache_dir: join(work, 'cache'),
    host_lock: join(work, 'host.lock'),
    build_profiles_dir: profiles,
    log_format: 'json',
    log_level: 'info',
    suite: 'quick',
    // The quick suite's 1-second pairs on a small shared host vary by 5-10% (config/quickstart.yaml says why).
    threshold: 0.9,
    profiling: 'off',
    quiet_max_wait_seconds: 60,
    retry_attempts: 1,
    email_to: ['dba@localhost'],
    email_from: 'qpswatch@localhost',
    outbox_dir: join(work, 'outbox'),
    upstreams: [
      {
        name: UPSTREAM,
        kind: 'source',
        index: site.url,
        flavor: 'mariadb',
        series: `>=${series(oldest)} <=${series(newest)}`,
        base: oldest,
        build_profile: 'mariadb-rel',
        server_profile: 'relaxed',
      },
      {
        name: BROKEN_UPSTREAM,
        kind: 'source',
        index: site.url,
        flavor: 'mariadb',
        series: newest,
        include: [`mariadb-${newest}`],
        build_profile: BROKEN_PROFILE,
        server_profile: 'relaxed',
      },
    ],
  };
  const file = join(work, 'qpswatch.yaml');
  await writeFile(file, stringify(config));
  return file;
}

async function buildPhase(
  work: string,
  sources: readonly FetchedSource[],
  run: (...args: string[]) => Promise<QpswatchResult>,
): Promise<BuildFigures[]> {
  const figures: BuildFigures[] = [];
  const ccacheDir = join(work, 'cache', 'ccache');
  for (const [i, s] of sources.entries()) {
    const tag = `mariadb-${s.version}`;
    const last = figures.filter((f) => f.ok).at(-1);
    say(
      `build ${i + 1} of ${sources.length}: ${tag}` +
        (last !== undefined ? ` (the last one took ${last.minutes.toFixed(1)} min)` : ' (cold: 20-60 min on 2 cores)'),
    );
    const before = await ccacheCounters(ccacheDir);
    const result = await run('build', tag, '--upstream', UPSTREAM);
    const cache = ccacheDelta(before, await ccacheCounters(ccacheDir));
    const installDir = /: (\/\S+)\n?$/.exec(result.stdout.trim())?.[1] ?? '';
    const built: BuildFigures = {
      tag,
      ok: result.exitCode === 0,
      minutes: result.seconds / 60,
      ccacheHits: cache.hits,
      ccacheMisses: cache.misses,
      ccacheHitRate: cache.rate ?? null,
      stateBytes: await diskBytes(join(work, 'state')),
      cacheBytes: await diskBytes(join(work, 'cache')),
      installBytes: installDir === '' ? 0 : await diskBytes(installDir),
      installDir,
    };
    figures.push(built);
    say(
      `${built.ok ? 'built' : 'FAILED'} ${tag} in ${built.minutes.toFixed(1)} min; ccache ${cache.hits} hits, ` +
        `${cache.misses} misses (${rate(cache.rate)}); state ${mb(built.stateBytes)}, cache ${mb(built.cacheBytes)}, ` +
        `install ${mb(built.installBytes)}`,
    );
  }
  return figures;
}

interface CheckFigures {
  tag: string;
  exitCode: number | null;
  minutes: number;
  againstBase: boolean;
  /** The check's verdict lines, as qpswatch printed them. */
  output: string;
}

async function checkPhase(
  sources: readonly FetchedSource[],
  run: (...args: string[]) => Promise<QpswatchResult>,
): Promise<CheckFigures[]> {
  const checks: CheckFigures[] = [];
  const versions = sources.map((s) => s.version).sort(byVersion);
  for (const version of versions) {
    const tag = `mariadb-${version}`;
    say(
      `check ${tag} against the series' last good (a session of the quick suite: about 10 min; the first is accepted)`,
    );
    const result = await run('check', tag, '--upstream', UPSTREAM);
    checks.push({
      tag,
      exitCode: result.exitCode,
      minutes: result.seconds / 60,
      againstBase: false,
      output: result.stdout,
    });
  }
  // A release whose relative QPS the chain of checks does not bring to the base is checked against the base itself.
  for (const version of await unchained(run)) {
    const tag = `mariadb-${version}`;
    say(`check ${tag} --against-base: the chain of checks does not reach the base for it`);
    const result = await run('check', tag, '--upstream', UPSTREAM, '--against-base');
    checks.push({
      tag,
      exitCode: result.exitCode,
      minutes: result.seconds / 60,
      againstBase: true,
      output: result.stdout,
    });
  }
  return checks;
}

/** The versions the report shows as a median ratio (~) for some test: no chain of checks to the base. */
async function unchained(run: (...args: string[]) => Promise<QpswatchResult>): Promise<string[]> {
  const result = await run('report', '--series', UPSTREAM, '--format', 'json');
  if (result.exitCode !== 0) return [];
  const view = JSON.parse(result.stdout) as {
    baseIndex: number;
    versions: Array<{ version: string }>;
    tests: Array<{ relativeQps?: Array<{ source?: string } | null> }>;
  };
  return view.versions
    .map((v, i) => ({ version: v.version, i }))
    .filter(({ i }) => i !== view.baseIndex && view.tests.some((t) => t.relativeQps?.[i]?.source === 'median'))
    .map((v) => v.version);
}

async function reportPhase(
  sources: readonly FetchedSource[],
  run: (...args: string[]) => Promise<QpswatchResult>,
): Promise<void> {
  const base = sources.map((s) => s.version).sort(byVersion)[0]!;
  say(`report: relative QPS of the releases against ${base}`);
  must(await run('report', '--series', UPSTREAM), 'qpswatch report');
}

interface FailureFigures {
  statusLine: string;
  emailSubject: string;
  emailFile: string;
}

/** qpswatch once: the broken upstream's build fails alone; status and the email say so in one line. */
async function failurePhase(
  work: string,
  run: (...args: string[]) => Promise<QpswatchResult>,
): Promise<FailureFigures> {
  say(`failure: qpswatch once builds the newest release once more with ${BREAKING_FLAG} (upstream ${BROKEN_UPSTREAM})`);
  await run('once');
  const status = await run('status');
  const statusLine = status.stdout.split('\n').find((l) => l.trim().startsWith(BROKEN_UPSTREAM)) ?? '(none)';
  const outbox = join(work, 'outbox');
  const emails = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  let emailSubject = '(none)';
  let emailFile = '';
  for (const name of emails) {
    const text = await readFile(join(outbox, name), 'utf8');
    const subject = /^Subject: (.*)$/m.exec(text)?.[1] ?? '';
    if (subject.includes('could not build')) {
      emailSubject = subject;
      emailFile = join(outbox, name);
    }
  }
  say(`status: ${statusLine.trim()}`);
  say(`email: ${emailSubject} (${emailFile})`);
  return { statusLine: statusLine.trim(), emailSubject, emailFile };
}

function printFigures(
  builds: readonly BuildFigures[],
  checks: readonly CheckFigures[],
  failure: FailureFigures | undefined,
  totalMinutes: number,
  work: string,
): void {
  const lines = ['', 'figures (this host was shared with other work while they were measured: they are noisy)'];
  for (const b of builds)
    lines.push(
      `  build ${b.tag}: ${b.ok ? '' : 'FAILED, '}${b.minutes.toFixed(1)} min, ` +
        `ccache hit rate ${rate(b.ccacheHitRate ?? undefined)} (${b.ccacheHits} hits, ${b.ccacheMisses} misses); ` +
        `after it: state ${mb(b.stateBytes)}, cache ${mb(b.cacheBytes)}, install ${mb(b.installBytes)}`,
    );
  for (const c of checks)
    lines.push(
      `  check ${c.tag}${c.againstBase ? ' --against-base' : ''}: exit ${c.exitCode}, ${c.minutes.toFixed(1)} min`,
    );
  if (failure !== undefined) {
    lines.push(`  failure in status: ${failure.statusLine}`);
    lines.push(`  failure email: ${failure.emailSubject}`);
  }
  lines.push(`  all of it: ${minutes(totalMinutes * 60_000)}; figures in ${join(work, 'figures.json')}`, '');
  process.stdout.write(lines.join('\n'));
}

function must(result: QpswatchResult, what: string): void {
  if (result.exitCode !== 0)
    throw new StepError(`${what} failed (exit ${result.exitCode}): ${result.tail.slice(-3).join(' | ')}`);
}

function rate(value: number | undefined): string {
  return value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

function series(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

function byVersion(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const known = err instanceof FetchError || err instanceof StepError || err instanceof AptSourcesError;
    process.stderr.write(`real-releases: ${err instanceof Error ? err.message : String(err)}\n`);
    if (!known && !(err instanceof InputError) && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    process.exitCode = err instanceof InputError ? 2 : 1;
  },
);
