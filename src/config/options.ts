import { join, resolve } from 'node:path';
import cron from 'node-cron';
import { z } from 'zod';
import { hasQuerySecret, splitUrl } from '../log/index.js';
import { instructionCounterSettings, memorySettings, profilingModes } from '../model/index.js';
import { FLAVORS } from '../version/index.js';
import { defineOption, type OptionSpec } from './option.js';
import { parseStoreUrl, STORE_URL_EXPECTED } from './store-url.js';

/** local@domain, no spaces or angle brackets; a bare host such as localhost is a fine domain for a local MTA. */
const emailAddress = z
  .string()
  .regex(/^[^\s@<>",;]+@[A-Za-z0-9.-]+$/, { error: 'expected an email address such as dba@example.org' });
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const NAME_RULE = '1-64 letters, digits, ".", "_" or "-", starting with a letter or digit';
// A target's name becomes part of folder and file names; one that is refused is named by its key, never run.
const targetName = z
  .string()
  .regex(NAME_PATTERN, { error: `a target name is ${NAME_RULE}: rename it, e.g. "relaxed"` });
const serverProfileName = z.string({ error: 'expected a server profile name, e.g. "relaxed"' }).regex(NAME_PATTERN, {
  error:
    `expected a server profile name (${NAME_RULE}, the name of a file ` +
    `<name>.yaml in server_profiles_dir), e.g. "relaxed"`,
});

// The link goes into every email: a user name, password or token in it would go to every reader.
const GRAFANA_URL_EXPECTED =
  'an http(s) URL with no user, password or token in it (it is put into every email), or empty';

const CRON_EXPECTED =
  'a cron expression of 5 fields (minute hour day-of-month month ' +
  'day-of-week), e.g. "17 * * * *" for hourly at minute 17';
const cronExpression = z.string().refine((expr) => cron.validate(expr), { error: CRON_EXPECTED });
const TIME_ZONE_EXPECTED = 'an IANA time zone name, e.g. UTC or Europe/Berlin';
const timeZone = z.string().refine(isTimeZone, { error: TIME_ZONE_EXPECTED });

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name !== '';
  } catch {
    return false;
  }
}

/** A server already on the host: a basedir (e.g. /usr) or the path of its mysqld binary. */
const installedTarget = z
  .object({
    kind: z.literal('installed'),
    flavor: z.enum(FLAVORS),
    basedir: z.string().min(1).optional(),
    binary: z.string().min(1).optional(),
    server_profile: serverProfileName,
  })
  .strict()
  .refine((t) => (t.basedir === undefined) !== (t.binary === undefined), {
    message: 'set exactly one of basedir or binary',
  });

export type InstalledTargetConfig = z.infer<typeof installedTarget>;

/** A vendor's binary tarball on this host (.tar.gz, .tar.xz): unpacked once into cache_dir and run from there. */
const tarballTarget = z
  .object({
    kind: z.literal('tarball'),
    flavor: z.enum(FLAVORS),
    tarball: z
      .string()
      .min(1)
      .refine((p) => p.startsWith('/'), { error: 'expected an absolute path to a .tar.gz or .tar.xz file' }),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, { error: 'expected 64 hex digits (sha256sum FILE)' })
      .transform((h) => h.toLowerCase())
      .optional(),
    server_profile: serverProfileName,
  })
  .strict();

export type TarballTargetConfig = z.infer<typeof tarballTarget>;
export type TargetConfig = InstalledTargetConfig | TarballTargetConfig;
const targetConfig = z.discriminatedUnion('kind', [installedTarget, tarballTarget], {
  error: 'expected kind: installed or kind: tarball',
});

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/**
 * The one table of options. Environment names, validation messages, `config options` and docs/configuration.md
 * all derive from it.
 */
export const OPTIONS = {
  state_dir: defineOption({
    name: 'state_dir',
    schema: z.string().min(1),
    default: (ctx) => ctx.env['STATE_DIRECTORY']?.split(':')[0] ?? ctx.service?.stateDir ?? resolve(ctx.cwd, 'var'),
    defaultDoc:
      '$STATE_DIRECTORY when systemd sets it, else /var/lib/qpswatch with the ' +
      "service's config (/etc/qpswatch/qpswatch.yaml), else ./var",
    doc: 'Folder for the store, work folders (datadirs, sockets, logs) and the outbox; systemd sets STATE_DIRECTORY.',
    expected: 'a folder path',
    envFormat: 'text',
  }),
  log_level: defineOption({
    name: 'log_level',
    schema: z.enum(LOG_LEVELS),
    default: () => 'info' as const,
    doc: 'Least severe level that is logged.',
    expected: `one of ${LOG_LEVELS.join(', ')}`,
    envFormat: 'text',
  }),
  log_format: defineOption({
    name: 'log_format',
    schema: z.enum(['auto', 'json', 'pretty']),
    default: () => 'auto' as const,
    doc: 'auto: JSON under systemd or when stderr is not a terminal, readable lines on a terminal.',
    expected: 'one of auto, json, pretty',
    envFormat: 'text',
  }),
  store_backend: defineOption({
    name: 'store_backend',
    schema: z.enum(['sqlite', 'mysql']),
    default: () => 'sqlite' as const,
    doc:
      'Where results are kept: sqlite is the file qpswatch.sqlite under state_dir; mysql is a database on a ' +
      'MySQL 8 or MariaDB 10.6+ server (store_url, or store_host, store_port or store_socket, store_user, ' +
      'store_database), which several hosts may share.',
    expected: 'sqlite or mysql',
    envFormat: 'text',
  }),
  store_url: defineOption({
    name: 'store_url',
    schema: z.string().refine((text) => text === '' || parseStoreUrl(text) !== undefined),
    default: () => '',
    doc:
      'With store_backend mysql: mysql://user@host:port/database, in place of store_user, store_host, store_port ' +
      'and store_database. A URL with a password is refused.',
    expected: STORE_URL_EXPECTED,
    envFormat: 'text',
  }),
  store_host: defineOption({
    name: 'store_host',
    schema: z.string().regex(/^[A-Za-z0-9.:_-]+$/),
    default: () => '127.0.0.1',
    doc: 'With store_backend mysql: the database server (by TCP).',
    expected: 'a host name or an IP address',
    envFormat: 'text',
  }),
  store_port: defineOption({
    name: 'store_port',
    schema: z.number().int().min(1).max(65535),
    default: () => 3306,
    doc: "With store_backend mysql: the database server's port.",
    expected: 'an integer from 1 to 65535',
    envFormat: 'number',
  }),
  store_socket: defineOption({
    name: 'store_socket',
    schema: z.string(),
    default: () => '',
    doc: 'With store_backend mysql: the unix socket of a server on this host, used instead of store_host and port.',
    expected: 'a socket path, or empty',
    envFormat: 'text',
  }),
  store_user: defineOption({
    name: 'store_user',
    schema: z.string().min(1),
    default: () => 'qpswatch',
    doc: 'With store_backend mysql: the database user.',
    expected: 'a user name',
    envFormat: 'text',
  }),
  store_password: defineOption({
    name: 'store_password',
    schema: z.string(),
    default: () => '',
    doc:
      "With store_backend mysql: the database user's password: from QPSWATCH_STORE_PASSWORD or a file named by " +
      'store_password_file, never from the config file.',
    expected: 'text',
    envFormat: 'text',
    secret: true,
  }),
  store_database: defineOption({
    name: 'store_database',
    schema: z.string().regex(/^[A-Za-z0-9_$.-]{1,64}$/),
    default: () => 'qpswatch',
    doc:
      'With store_backend mysql: the database (made beforehand: CREATE DATABASE qpswatch, and GRANT ALL ON ' +
      'qpswatch.* to store_user); qpswatch makes its tables.',
    expected: 'a database name: 1-64 letters, digits, "_", "$", "." or "-"',
    envFormat: 'text',
  }),
  store_tls: defineOption({
    name: 'store_tls',
    schema: z.enum(['off', 'on', 'verify']),
    default: () => 'off' as const,
    doc:
      'With store_backend mysql over TCP: off, on (encrypted, any certificate) or verify (encrypted, and the ' +
      "server's certificate checked against store_tls_ca or the system's CAs). Use verify across a network.",
    expected: 'off, on or verify',
    envFormat: 'text',
  }),
  store_tls_ca: defineOption({
    name: 'store_tls_ca',
    schema: z.string(),
    default: () => '',
    doc: "With store_tls verify: a PEM file of the CA that signed the server's certificate; empty: the system's CAs.",
    expected: 'a file path, or empty',
    envFormat: 'text',
  }),
  host_name: defineOption({
    name: 'host_name',
    schema: z
      .string()
      .max(128)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'expected letters, digits, ".", "_" or "-"' }),
    // The kernel's host name names a machine, and one machine runs one daemon (the host lock).
    default: (ctx) => defaultHostName(ctx.hostName),
    defaultDoc: "the machine's host name, up to its first dot",
    doc:
      "This host's name in a fleet of daemons sharing one store: its queue (with benchmark_once_per host), its " +
      "claims on queue rows and its sessions carry it. The default is the machine's host name; give each daemon " +
      'of a fleet its own.',
    expected: 'a name of letters, digits, ".", "_" or "-", up to 128 characters',
    envFormat: 'text',
  }),
  benchmark_once_per: defineOption({
    name: 'benchmark_once_per',
    schema: z.enum(['host', 'host_class']),
    // host: a release measured on one host of a class says nothing certain of another (the studies' regressions
    // showed on one server and not on its neighbour), and results are only compared within one fingerprint.
    default: () => 'host' as const,
    doc:
      'In a fleet: host, every daemon benchmarks every release (each host keeps its own series, as the reference ' +
      'studies compare servers); host_class, one daemon of each class of identical hardware (CPU model, sockets, ' +
      'cores, threads, NUMA nodes, memory) benchmarks it, and the others of the class take other releases.',
    expected: 'host or host_class',
    envFormat: 'text',
  }),
  claim_seconds: defineOption({
    name: 'claim_seconds',
    schema: z.number().int().min(10).max(86_400),
    // Renewed every third of it while the work runs: a few missed renewals (a store that hiccups) lose nothing.
    default: () => 600,
    doc:
      "In a fleet: how long a daemon's claim on the release it builds or benchmarks lasts unless renewed (it is " +
      'renewed every third of it while the work runs). A daemon that died loses its claim this long after its last ' +
      'renewal; then another daemon of its slot, or its own restart at once, takes the release over.',
    expected: 'a whole number of seconds from 10 to 86400',
    envFormat: 'number',
  }),
  fingerprint_test_mark: defineOption({
    name: 'fingerprint_test_mark',
    schema: z.string().max(64),
    default: () => '',
    doc:
      'Tests only: a text added to the host fingerprint, so two daemons on one test machine look like two hosts. ' +
      "Never set it on a real host: its results would stand apart from the same hardware's.",
    expected: 'a text of up to 64 characters (empty on a real host)',
    envFormat: 'text',
  }),
  suites_dir: defineOption({
    name: 'suites_dir',
    schema: z.string().min(1),
    default: (ctx) => join(ctx.projectRoot, 'config', 'suites'),
    defaultDoc: 'config/suites in the qpswatch folder',
    doc: 'Folder of suite files (<name>.yaml) that --suite names.',
    expected: 'a folder path',
    envFormat: 'text',
  }),
  server_profiles_dir: defineOption({
    name: 'server_profiles_dir',
    schema: z.string().min(1),
    default: (ctx) => join(ctx.projectRoot, 'config', 'server-profiles'),
    defaultDoc: 'config/server-profiles in the qpswatch folder',
    doc: 'Folder of server config profiles (<name>.yaml) that targets name.',
    expected: 'a folder path',
    envFormat: 'text',
  }),
  server_user: defineOption({
    name: 'server_user',
    schema: z
      .string()
      .regex(/^([a-z_][a-z0-9_-]*)?$/)
      .refine((name) => name !== 'root', { error: 'the benchmarked server never runs as root' }),
    default: () => '',
    doc:
      'Unprivileged system user the benchmarked server runs as when qpswatch ' +
      'runs as root (--user; qpswatch gives it its datadir, socket folder and ' +
      'logs); empty: mysql. Not root. When qpswatch is not root, mysqld runs ' +
      "as qpswatch's own user and this must stay empty.",
    expected: 'a user name other than root, or empty',
    envFormat: 'text',
  }),
  server_port: defineOption({
    name: 'server_port',
    schema: z.number().int().min(0).max(65535),
    default: () => 0,
    doc: 'TCP port on 127.0.0.1 for the benchmarked server; 0 means no TCP at all (unix socket only).',
    expected: 'an integer from 0 to 65535',
    envFormat: 'number',
  }),
  server_start_timeout_seconds: defineOption({
    name: 'server_start_timeout_seconds',
    schema: z.number().int().min(5).max(3600),
    default: () => 180,
    doc: 'How long a server may take to answer on its socket after start (crash recovery can be slow).',
    expected: 'an integer from 5 to 3600',
    envFormat: 'number',
  }),
  server_stop_timeout_seconds: defineOption({
    name: 'server_stop_timeout_seconds',
    schema: z.number().int().min(1).max(3600),
    default: () => 120,
    doc:
      'How long a server may take to shut down after SHUTDOWN (it flushes its dirty pages first); then it is ' +
      'stopped by SIGTERM, and SIGKILL 10 s later.',
    expected: 'an integer from 1 to 3600',
    envFormat: 'number',
  }),
  suite: defineOption({
    name: 'suite',
    schema: z.string().min(1),
    default: () => 'quick',
    doc: 'Suite run by compare when --suite is not given.',
    expected: 'a suite name or path',
    envFormat: 'text',
  }),
  rounds: defineOption({
    name: 'rounds',
    schema: z.number().int().min(1).max(100),
    // 5 rounds is the fewest at which the randomization test can reach alpha 0.01 (smallest p-value 1/252);
    // measured with npm run bench:aa (docs/verdicts.md).
    default: () => 5,
    doc:
      'Whole-run design (design: runs) only: rounds of a session, each ' +
      'running both targets on a fresh copy of the loaded datadir, order ' +
      'alternating; at alpha 0.01 verdicts need 5 or more (the smallest ' +
      'p-value of R rounds is 1/C(2R, R)), and fewer than alpha needs are ' +
      'refused before a session starts.',
    expected: 'an integer from 1 to 100',
    envFormat: 'number',
  }),
  upstreams: defineOption({
    name: 'upstreams',
    // The shape of each entry is the upstream room's (UpstreamConfigSchema); the CLI parses it once at start-up.
    schema: z.array(z.record(z.string(), z.unknown())),
    default: () => [],
    doc:
      'Release sources to watch: a git remote { name, remote, flavor, series, ' +
      'build_profile, server_profile, include?, exclude?, min_version?, ' +
      'base?, patches? } (base: the release reports are relative to, e.g. ' +
      '"10.11.1"; patches: absolute paths of patch files applied with git ' +
      'apply to every tag before it is built, their sha256 part of the build ' +
      "key), or a vendor's download index { name, kind: tarball, index, " +
      'file?, flavor, series, server_profile, ... }.',
    expected: 'a list of upstreams',
    envFormat: 'json',
  }),
  build_profiles_dir: defineOption({
    name: 'build_profiles_dir',
    schema: z.string().min(1),
    default: (ctx) => join(ctx.projectRoot, 'config', 'build-profiles'),
    defaultDoc: 'config/build-profiles in the qpswatch folder',
    doc: 'Folder of build profiles (<name>.yaml) that upstreams name.',
    expected: 'a folder path',
    envFormat: 'text',
  }),
  cache_dir: defineOption({
    name: 'cache_dir',
    schema: z.string().min(1),
    default: (ctx) =>
      ctx.env['CACHE_DIRECTORY']?.split(':')[0] ?? ctx.service?.cacheDir ?? resolve(ctx.cwd, 'var', 'cache'),
    defaultDoc:
      "$CACHE_DIRECTORY when systemd sets it, else /var/cache/qpswatch with the service's config, else ./var/cache",
    doc: 'Folder for what can be rebuilt: the git mirrors and the ccache of builds.',
    expected: 'a folder path',
    envFormat: 'text',
  }),
  min_free_bytes: defineOption({
    name: 'min_free_bytes',
    schema: z.number().int().min(0),
    default: () => 20 * 2 ** 30,
    doc:
      'A build does not start when state_dir has less free space than this (a ' +
      'MariaDB build and install take ~5 GB), and a loaded datadir is not kept in the cache (datadir_cache) when ' +
      'its copy would leave less than this free in cache_dir.',
    expected: 'a whole number of bytes',
    envFormat: 'number',
  }),
  install_build_packages: defineOption({
    name: 'install_build_packages',
    schema: z.boolean(),
    default: () => true,
    doc:
      'Before a build, the Debian packages its build profile names (packages:, and those of the overrides for the ' +
      "release's version) are checked with dpkg-query; missing ones are installed with apt-get when this is true " +
      'and qpswatch runs as root. Otherwise, or when apt-get cannot, the build stops with one line naming them.',
    expected: 'true or false',
    envFormat: 'boolean',
  }),
  bisect: defineOption({
    name: 'bisect',
    schema: z.boolean(),
    default: () => false,
    doc:
      "When a check (the daemon's, or qpswatch check) opens a regression event of a git upstream, bisect the tag " +
      'at once for the regressed tests within bisect_max_builds and bisect_max_hours; the result is stored with ' +
      'the event and sent as one follow-up email. A bisection that fails is stored and logged, never fails the check.',
    expected: 'true or false',
    envFormat: 'boolean',
  }),
  bisect_max_builds: defineOption({
    name: 'bisect_max_builds',
    schema: z.number().int().min(1).max(100),
    default: () => 12,
    doc:
      'bisect: the most commits one bisection builds (a commit that does not build counts); it stops and ' +
      'says which range is left when they are spent.',
    expected: 'an integer from 1 to 100',
    envFormat: 'number',
  }),
  bisect_max_hours: defineOption({
    name: 'bisect_max_hours',
    schema: z.number().gt(0).max(168),
    default: () => 12,
    doc: 'bisect: the most hours one bisection runs; no new step starts after them, and it says which range is left.',
    expected: 'a number of hours greater than 0, at most 168',
    envFormat: 'number',
  }),
  keep_builds: defineOption({
    name: 'keep_builds',
    schema: z.number().int().min(1).max(1000),
    default: () => 10,
    doc: 'Pruning keeps this many newest installs per upstream, besides those of the base and last good releases.',
    expected: 'an integer from 1 to 1000',
    envFormat: 'number',
  }),
  threshold: defineOption({
    name: 'threshold',
    schema: z.number().gt(0.5).lt(1),
    default: () => 0.95,
    doc: 'A test regressed when its relative QPS is under this and the drop is significant; improved over 1/threshold.',
    expected: 'a number greater than 0.5 and less than 1',
    envFormat: 'number',
  }),
  test_thresholds: defineOption({
    name: 'test_thresholds',
    schema: z.record(z.string().min(1), z.number().gt(0.5).lt(1)),
    default: () => ({}),
    doc: 'Per-test thresholds by test name, over threshold (e.g. { scan: 0.9 } for a noisy test).',
    expected: 'a map of test name to a number greater than 0.5 and less than 1',
    envFormat: 'json',
  }),
  alpha: defineOption({
    name: 'alpha',
    schema: z.number().gt(0).lt(0.5),
    // 0.01, not 0.05: a host runs many sessions, and measured A/A sessions must show no false alarm (docs/verdicts.md).
    default: () => 0.01,
    doc: 'The chance a session may flag any test of two equal servers (family-wise, over all tests of the session).',
    expected: 'a number greater than 0 and less than 0.5',
    envFormat: 'number',
  }),
  design: defineOption({
    name: 'design',
    schema: z.enum(['paired', 'runs']),
    default: () => 'paired' as const,
    doc:
      'paired: both servers up, each test measured as short alternating pairs ' +
      'seconds apart, added until decided (docs/verdicts.md); runs: ' +
      'whole-suite runs in rounds, for servers that do not fit in memory ' +
      'together.',
    expected: 'paired or runs',
    envFormat: 'text',
  }),
  budget_minutes: defineOption({
    name: 'budget_minutes',
    schema: z.number().gt(0).max(10080).optional(),
    default: () => undefined,
    defaultDoc: "the suite's budget_minutes",
    doc:
      'Paired design: the most a session may spend measuring pairs; tests ' +
      'still undecided then are slower (significantly slower, within the ' +
      'margin) or unstable. An upstream may set its own. A budget whose ' +
      'sweeps cannot reach the first look (8 pairs) is refused before the ' +
      'session starts.',
    expected: 'a number of minutes greater than 0',
    envFormat: 'number',
  }),
  max_pairs: defineOption({
    name: 'max_pairs',
    schema: z.number().int().min(2).max(1000),
    default: () => 200,
    doc:
      'Paired design: the most pairs any test gets, whatever the budget (the ' +
      'looks are planned on the blocks the budget pays for: docs/verdicts.md).',
    expected: 'an integer from 2 to 1000',
    envFormat: 'number',
  }),
  instance_seconds: defineOption({
    name: 'instance_seconds',
    schema: z.number().int().min(0).max(3600),
    // Two instances of one release differ by a few percent (docs/verdicts.md): the verdicts need many pairs of
    // instances, and a restart costs about 6 s, so about one sweep of the quick suite per pair of instances.
    default: () => 15,
    doc:
      'Paired design: seconds of runs (both sides) a pair of server instances measures before both servers are ' +
      'restarted on fresh copies of their loaded data; the verdicts treat the pairs of one pair of instances as ' +
      'one block, so an offset between two instances of one release is not taken for a release effect ' +
      '(docs/verdicts.md). 0: new instances before every sweep.',
    expected: 'an integer from 0 to 3600',
    envFormat: 'number',
  }),
  instance_warmup_seconds: defineOption({
    name: 'instance_warmup_seconds',
    schema: z.number().int().min(0).max(60),
    // A restarted server's buffer pool is empty while the OS cache still holds the copied data: a second of the
    // suite's warm-up script fills it for the quick suite's tables (RESTART_WARMUP_SECONDS).
    default: () => 1,
    doc:
      "Paired design: seconds of the suite's warm-up script each server runs after a restart, before the next " +
      "block's pairs (at most the suite's own warm-up seconds). 0: none, for tables too small to need it.",
    expected: 'an integer from 0 to 60',
    envFormat: 'number',
  }),
  reanchor_every: defineOption({
    name: 'reanchor_every',
    schema: z.number().int().min(0).max(1000),
    // A chained estimate's error grows with the square root of its steps, and each false suspicion costs a confirming
    // session: every 4th check against the base keeps a chain to 3 steps at most, for one session in 4 that is
    // judged against the base instead of the last good (docs/verdicts.md).
    default: () => 4,
    doc:
      'Every this many checked releases of a series, the check is a paired ' +
      'session directly against the base (base:, else the oldest checked ' +
      'release) instead of the last good: it re-anchors the chained estimate, ' +
      'whose interval widens with every step. 0: off.',
    expected: 'an integer from 0 to 1000 (0: off)',
    envFormat: 'number',
  }),
  memory: defineOption({
    name: 'memory',
    schema: z
      .array(z.enum(memorySettings, { error: `expected ${memorySettings.join(' or ')}` }))
      .max(memorySettings.length)
      .refine((l) => new Set(l).size === l.length, { error: 'names a memory setting twice' }),
    default: () => [],
    defaultDoc: '[] (the server profiles as they are)',
    doc:
      'The memory settings a compare runs its suite under, one session each ' +
      '(compare --memory overrides it): io-bound (innodb_buffer_pool_size set ' +
      'to io_bound_buffer_pool, innodb_flush_method=O_DIRECT; each load of ' +
      "the suite (a level's data set) must be 3 times the pool or more) and " +
      "cached (the profile's pool must hold the data; every table is read " +
      'into it before the tests and checked to stay there; the buffer pool ' +
      'hit ratio is reported). A setting the suite, profile or host cannot ' +
      'honour is refused before anything is loaded (docs/verdicts.md, ' +
      '"IO-bound and cached").',
    expected: 'a list of cached and io-bound, e.g. [cached, io-bound]',
    envFormat: 'json',
  }),
  io_bound_buffer_pool: defineOption({
    name: 'io_bound_buffer_pool',
    schema: z.string().regex(/^\d+[KMG]?$/, { error: 'expected a size such as 1G, 512M or 8M' }),
    // The studies' IO-bound runs: a 1G pool against 16 to 29 GB of data.
    default: () => '1G',
    doc:
      'The innodb_buffer_pool_size of the io-bound memory setting; each load ' +
      "of the suite (a level's data set) must be 3 times it or more.",
    expected: 'a size such as 1G, 512M or 8M (MariaDB takes 2M at the least)',
    envFormat: 'text',
  }),
  idle_server: defineOption({
    name: 'idle_server',
    schema: z.enum(['pause', 'drain']),
    // Measured with bench:aa on this project's VM (docs/verdicts.md): drain halved the pair noise of 1-thread tests.
    default: () => 'drain' as const,
    doc:
      'Paired design: what the server not being measured does. drain: left ' +
      'running, and each measurement waits until its CPU use has settled; ' +
      'pause: frozen by SIGSTOP (it then pays its deferred background work in ' +
      'its own next run, which measured noisier).',
    expected: 'pause or drain',
    envFormat: 'text',
  }),
  idle_settle_max_seconds: defineOption({
    name: 'idle_settle_max_seconds',
    schema: z.number().min(0).max(600),
    // The idle server mostly settles within a second; 15 s covers a purge or a flush after a write test.
    default: () => 15,
    doc:
      'Paired design, drain: the longest wait, before each measurement, for the server not being measured to ' +
      'settle (under 2% of a CPU and 64 KiB written in a quarter second); the measurement then starts anyway, ' +
      'with a warning (docs/verdicts.md). 0: no wait.',
    expected: 'a number of seconds from 0 to 600',
    envFormat: 'number',
  }),
  datadir_cache: defineOption({
    name: 'datadir_cache',
    schema: z.number().int().min(0).max(100),
    // The last good release and the one checked against it: the two a series' next check loads again.
    default: () => 2,
    doc:
      'How many loaded datadirs to keep under cache_dir/datadirs, the one used longest ago dropped first: a session ' +
      'whose server binary, my.cnf, sysbench and load match one copies it instead of loading its tables again (the ' +
      'slow part of starting a session with large tables). Each takes the disk of a loaded datadir; 0 keeps none.',
    expected: 'a whole number from 0 to 100',
    envFormat: 'number',
  }),
  run_grace_seconds: defineOption({
    name: 'run_grace_seconds',
    schema: z.number().int().min(5).max(3600),
    // More than InnoDB's default lock wait (50 s), which a client thread may sit in when its time is up.
    default: () => 60,
    doc:
      "How long a measured sysbench run may go past its test's seconds (to connect, start its threads, finish and " +
      'report) before it counts as hung: the run is stopped and the session fails with one line naming the test.',
    expected: 'a whole number of seconds from 5 to 3600',
    envFormat: 'number',
  }),
  idle_window_ms: defineOption({
    name: 'idle_window_ms',
    schema: z.number().int().min(20).max(5000),
    // The wait's one unavoidable cost: every run waits at least one window. Measured side by side (docs/verdicts.md).
    default: () => 250,
    doc:
      'Paired design, drain: the window over which the server not being measured must stay under 2% of a CPU and ' +
      '64 KiB written before a measurement starts; every run waits at least one window (docs/verdicts.md).',
    expected: 'an integer of milliseconds from 20 to 5000',
    envFormat: 'number',
  }),
  hold_idle_states: defineOption({
    name: 'hold_idle_states',
    schema: z.boolean(),
    default: () => true,
    doc:
      'Hold the PM QoS CPU latency request at 0 (/dev/cpu_dma_latency) during ' +
      'a session, so idle CPUs do not halt between queries; needs root, or ' +
      'write access to the device (the service gets it from the udev rule of ' +
      'systemd/install.sh). `qpswatch host` shows whether it can be held. ' +
      'Recorded with the session and in the host fingerprint.',
    expected: 'true or false',
    envFormat: 'boolean',
  }),
  profiling: defineOption({
    name: 'profiling',
    schema: z.enum(profilingModes),
    default: () => 'auto' as const,
    doc:
      'How `qpswatch profile`, and a check that opens a regression (its worst test), sample the servers. ' +
      'auto: perf (Debian: linux-perf) with call graphs, else gdb ' +
      "stack samples (a poor man's profiler); perf or gdb: only that one; off: no profiles. Under the systemd unit " +
      'both need the drop-in systemd/qpswatch.service.d/profiling.conf (docs/operating.md).',
    expected: 'auto, perf, gdb or off',
    envFormat: 'text',
  }),
  profile_seconds: defineOption({
    name: 'profile_seconds',
    schema: z.number().int().min(1).max(600),
    default: () => 10,
    doc:
      'How long `qpswatch profile`, and a check profiling its worst regression, sample each server while the ' +
      'test runs on it.',
    expected: 'a whole number of seconds from 1 to 600',
    envFormat: 'number',
  }),
  instruction_counter: defineOption({
    name: 'instruction_counter',
    schema: z.enum(instructionCounterSettings),
    default: () => 'auto' as const,
    doc:
      'The instructions lane of compare and check (docs/verdicts.md, "Instructions per query"): after the pairs, ' +
      "each 1-thread test's instructions per query are counted on both servers. auto: perf stat's instructions:u " +
      'where the host has a PMU, else callgrind (Debian: valgrind); callgrind or perf: only that one; off: no lane. ' +
      'A counter that is missing or refused is one line at the start, and the QPS lane goes on alone.',
    expected: 'auto, callgrind, perf or off',
    envFormat: 'text',
  }),
  instructions_repeats: defineOption({
    name: 'instructions_repeats',
    schema: z.number().int().min(1).max(20),
    // Three runs give a median and a spread; the counts repeat to 0.2% or better (docs/verdicts.md).
    default: () => 3,
    doc: "Instructions lane: counted runs per side and test, each from a fresh copy of the side's loaded datadir.",
    expected: 'an integer from 1 to 20',
    envFormat: 'number',
  }),
  instructions_events: defineOption({
    name: 'instructions_events',
    schema: z.number().int().min(10).max(1_000_000),
    default: () => 2000,
    doc: "Instructions lane: the measured run's sysbench events (--events, --rand-seed fixed), counted.",
    expected: 'an integer from 10 to 1000000',
    envFormat: 'number',
  }),
  instructions_warmup_events: defineOption({
    name: 'instructions_warmup_events',
    schema: z.number().int().min(0).max(1_000_000),
    default: () => 500,
    doc: "Instructions lane: events of the test's own script run first on the same server, not counted (0: none).",
    expected: 'an integer from 0 to 1000000',
    envFormat: 'number',
  }),
  instructions_threshold: defineOption({
    name: 'instructions_threshold',
    schema: z.number().gt(1).lt(2),
    // 2%: 10 times the worst spread of repeated counts measured here, under what QPS can see here (docs/verdicts.md).
    default: () => 1.02,
    doc:
      'A test is an instructions regression when its instructions per query C/B are over this and beyond the ' +
      "repeats' spread; an improvement under 1/threshold.",
    expected: 'a number greater than 1 and less than 2',
    envFormat: 'number',
  }),
  instructions_test_thresholds: defineOption({
    name: 'instructions_test_thresholds',
    schema: z.record(z.string().min(1), z.number().gt(1).lt(2)),
    default: () => ({}),
    doc: 'Per-test instructions thresholds by test name, over instructions_threshold (e.g. { insert: 1.05 }).',
    expected: 'a map of test name to a number greater than 1 and less than 2',
    envFormat: 'json',
  }),
  confidence: defineOption({
    name: 'confidence',
    schema: z.number().gt(0.5).lt(1),
    default: () => 0.95,
    doc:
      'Confidence of the interval reported per test; "ok" means its lower end ' +
      'clears the threshold (no drop larger than the margin).',
    expected: 'a number greater than 0.5 and less than 1',
    envFormat: 'number',
  }),
  email_to: defineOption({
    name: 'email_to',
    schema: z.array(emailAddress),
    default: () => [],
    doc: 'Who gets the regression and recovery emails; with none, no email is queued.',
    expected: 'a list of email addresses',
    envFormat: 'json',
  }),
  email_from: defineOption({
    name: 'email_from',
    schema: emailAddress,
    default: () => 'qpswatch@localhost',
    doc: "The sender of qpswatch's emails.",
    expected: 'an email address',
    envFormat: 'text',
  }),
  smtp_host: defineOption({
    name: 'smtp_host',
    schema: z.string().regex(/^[A-Za-z0-9.:_-]*$/),
    default: () => '',
    doc:
      "The SMTP server that takes qpswatch's emails; empty: each message is " +
      'written as an .eml file to outbox_dir instead.',
    expected: 'a host name or address, or empty',
    envFormat: 'text',
  }),
  smtp_port: defineOption({
    name: 'smtp_port',
    schema: z.number().int().min(1).max(65535),
    default: () => 25,
    doc: "The SMTP server's port (587 for submission with STARTTLS, 465 with smtp_secure).",
    expected: 'an integer from 1 to 65535',
    envFormat: 'number',
  }),
  smtp_secure: defineOption({
    name: 'smtp_secure',
    schema: z.boolean(),
    default: () => false,
    doc:
      'TLS from the first byte (port 465); when false, STARTTLS is used if ' +
      'the server offers it, and is required when smtp_user is set (see ' +
      'smtp_allow_plaintext_auth).',
    expected: 'true or false',
    envFormat: 'boolean',
  }),
  smtp_user: defineOption({
    name: 'smtp_user',
    schema: z.string(),
    default: () => '',
    doc: 'The SMTP login; empty: no authentication.',
    expected: 'text',
    envFormat: 'text',
  }),
  smtp_password: defineOption({
    name: 'smtp_password',
    schema: z.string(),
    default: () => '',
    doc:
      'The SMTP password: from QPSWATCH_SMTP_PASSWORD or a file named by ' +
      'smtp_password_file, never from the config file.',
    expected: 'text',
    envFormat: 'text',
    secret: true,
  }),
  smtp_allow_plaintext_auth: defineOption({
    name: 'smtp_allow_plaintext_auth',
    schema: z.boolean(),
    default: () => false,
    doc:
      'Allow the SMTP login (smtp_user, smtp_password) over a connection ' +
      'without TLS; when false, a login needs smtp_secure or a server that ' +
      'offers STARTTLS, and a server without it is refused before the ' +
      'password is sent. Only for a relay on this host.',
    expected: 'true or false',
    envFormat: 'boolean',
  }),
  smtp_timeout_seconds: defineOption({
    name: 'smtp_timeout_seconds',
    schema: z.number().int().min(1).max(600),
    default: () => 30,
    doc:
      'The most time one message may take to send, from connecting to the ' +
      "server's last answer (a server that trickles bytes is cut off at it " +
      'too); the message is tried again later.',
    expected: 'an integer from 1 to 600',
    envFormat: 'number',
  }),
  outbox_dir: defineOption({
    name: 'outbox_dir',
    schema: z.string(),
    default: () => '',
    defaultDoc: 'state_dir/outbox',
    doc: 'Where messages are written as .eml files when no smtp_host is set.',
    expected: 'a folder path',
    envFormat: 'text',
  }),
  grafana_url: defineOption({
    name: 'grafana_url',
    schema: z.union([
      z.literal(''),
      z
        .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
        .refine((url) => splitUrl(url)?.userinfo === '' && !hasQuerySecret(url), { error: GRAFANA_URL_EXPECTED }),
    ]),
    default: () => '',
    doc: "The base URL of the Grafana that has qpswatch's dashboards, for the link in each email; empty: no link.",
    expected: GRAFANA_URL_EXPECTED,
    envFormat: 'text',
  }),
  schedule: defineOption({
    name: 'schedule',
    schema: cronExpression,
    default: () => '17 * * * *',
    doc:
      'When the daemon polls the upstreams: a cron expression (minute hour ' +
      'day-of-month month day-of-week, an optional seconds field first); the ' +
      'default is hourly at minute 17. A daemon that was down longer than one ' +
      'interval polls at once when it starts.',
    expected: CRON_EXPECTED,
    envFormat: 'text',
  }),
  schedule_timezone: defineOption({
    name: 'schedule_timezone',
    schema: timeZone,
    default: () => 'UTC',
    doc: 'The time zone the schedule is read in (an IANA name such as UTC or Europe/Berlin).',
    expected: TIME_ZONE_EXPECTED,
    envFormat: 'text',
  }),
  retry_attempts: defineOption({
    name: 'retry_attempts',
    schema: z.number().int().min(1).max(20),
    default: () => 3,
    doc:
      "The daemon tries a release's build, and then its session, at most " +
      'this many times before it gives up and sends one "could not build" or ' +
      '"could not measure" email (1: no retry); a compiler error is not ' +
      'retried.',
    expected: 'an integer from 1 to 20',
    envFormat: 'number',
  }),
  retry_backoff_minutes: defineOption({
    name: 'retry_backoff_minutes',
    schema: z
      .number()
      .min(0)
      .max(7 * 1440),
    default: () => 30,
    doc:
      'The wait before the second attempt of a failed build or session, ' +
      'doubling for each one after (30, 60, 120 ...); the cycle after that ' +
      'time takes it. 0: the next cycle.',
    expected: 'a number of minutes from 0 to 10080',
    envFormat: 'number',
  }),
  host_lock: defineOption({
    name: 'host_lock',
    schema: z.string().min(1),
    default: () => '/run/qpswatch/host.lock',
    doc:
      'A lock file that keeps two benchmarks or builds on one host from ' +
      'running at once (the daemon holds it while it runs; compare, check and ' +
      'build hold it while they work, and wait for one another); it holds the ' +
      "pid and start time of its holder. Its folder must be root's or " +
      "qpswatch's (the default's, made when missing, is the unit's RuntimeDirectory).",
    expected: 'a file path',
    envFormat: 'text',
  }),
  quiet_max_busy_percent: defineOption({
    name: 'quiet_max_busy_percent',
    schema: z.number().min(0).max(100),
    default: () => 10,
    doc:
      'Quiet host: the most CPU (percent of all CPUs) other processes may use ' +
      'before a session; over it the session waits.',
    expected: 'a number from 0 to 100',
    envFormat: 'number',
  }),
  quiet_min_available_bytes: defineOption({
    name: 'quiet_min_available_bytes',
    schema: z.number().int().min(0),
    default: () => 2 * 2 ** 30,
    doc: 'Quiet host: the least available memory (MemAvailable) before a session; under it the session waits.',
    expected: 'a whole number of bytes',
    envFormat: 'number',
  }),
  quiet_max_swap_pages_per_second: defineOption({
    name: 'quiet_max_swap_pages_per_second',
    schema: z.number().min(0),
    default: () => 10,
    doc: 'Quiet host: the most swap pages in and out per second before a session; over it the session waits.',
    expected: 'a number >= 0',
    envFormat: 'number',
  }),
  quiet_governors: defineOption({
    name: 'quiet_governors',
    schema: z.array(z.string().regex(/^[a-z0-9_-]+$/)),
    default: () => [],
    doc:
      'Quiet host: the CPU frequency governors allowed (e.g. [performance]); ' +
      'empty: any. Hosts without cpufreq always pass.',
    expected: 'a list of governor names',
    envFormat: 'json',
  }),
  quiet_window_seconds: defineOption({
    name: 'quiet_window_seconds',
    schema: z.number().min(0.1).max(600),
    default: () => 10,
    doc: 'Quiet host: how long each look at the host lasts; a busy host is looked at again every window.',
    expected: 'a number of seconds from 0.1 to 600',
    envFormat: 'number',
  }),
  quiet_max_wait_seconds: defineOption({
    name: 'quiet_max_wait_seconds',
    schema: z
      .number()
      .min(0)
      .max(7 * 86_400),
    default: () => 1800,
    doc:
      'Quiet host: how long a session waits for a quiet host; then it runs ' +
      'anyway with a warning, and what the check saw is stored with the ' +
      'session.',
    expected: 'a number of seconds from 0 to 604800',
    envFormat: 'number',
  }),
  targets: defineOption({
    name: 'targets',
    schema: z.record(targetName, targetConfig),
    default: () => ({}),
    doc:
      'Servers that compare can run, by name: { kind: installed, flavor, ' +
      'basedir | binary, server_profile } or { kind: tarball, flavor, ' +
      'tarball: /path/x.tar.gz, sha256?, server_profile } (unpacked once ' +
      'under cache_dir/tarballs).',
    expected: 'a map of target name to target',
    envFormat: 'json',
  }),
  calibrate_target: defineOption({
    name: 'calibrate_target',
    schema: z.string().min(1).optional(),
    default: () => undefined,
    defaultDoc: 'the first of targets',
    doc:
      'The target `qpswatch calibrate` runs against itself to measure the ' +
      'noise of a pair on this host (a name in targets, or a built release ' +
      'tag).',
    expected: 'a target name or a built release tag',
    envFormat: 'text',
  }),
  metrics_host: defineOption({
    name: 'metrics_host',
    schema: z.string().regex(/^[A-Za-z0-9.:_-]+$/),
    default: () => '127.0.0.1',
    doc:
      'The address the daemon serves /metrics and /healthz on; 127.0.0.1 ' +
      'keeps them off the network (0.0.0.0: every address).',
    expected: 'a host name or an IP address',
    envFormat: 'text',
  }),
  metrics_port: defineOption({
    name: 'metrics_port',
    schema: z.number().int().min(0).max(65535),
    default: () => 9467,
    doc: "The port of the daemon's metrics server; 0: no metrics server.",
    expected: 'an integer from 0 to 65535',
    envFormat: 'number',
  }),
  metrics_versions_per_series: defineOption({
    name: 'metrics_versions_per_series',
    schema: z.number().int().min(1).max(1000),
    default: () => 20,
    doc:
      'Only the newest this many versions of each series are exported as ' +
      'metrics, so the series count stays bounded.',
    expected: 'an integer from 1 to 1000',
    envFormat: 'number',
  }),
} as const;

type OptionValue<O> = O extends OptionSpec<infer T> ? T : never;
export type Config = { -readonly [K in keyof typeof OPTIONS]: OptionValue<(typeof OPTIONS)[K]> };
export type OptionName = keyof typeof OPTIONS;

export const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** The kernel's host name as a host_name (its first label, characters outside the option's set made "-"). */
function defaultHostName(machine: string): string {
  const name = machine
    .split('.')[0]!
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 128);
  return /^[A-Za-z0-9]/.test(name) ? name : `host-${name}`;
}
