import { defaultEnv, ExecNotFoundError, run, type RunOptions, type RunResult } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { BuildPackagesError } from './errors.js';

export interface BuildPackagesOptions {
  /** The Debian packages the build's profile names (profileFor's packages). */
  readonly packages: readonly string[];
  /** install_build_packages: missing ones are installed with apt-get (as root); else the build stops naming them. */
  readonly install: boolean;
  /** apt-get's output is appended here (the build's log). */
  readonly logFile?: string;
  readonly signal?: AbortSignal;
  readonly log: Logger;
  /** exec's run; unit tests pass a fake that plays dpkg-query and apt-get. */
  readonly runner?: (opts: RunOptions) => Promise<RunResult>;
  /** process.getuid; unit tests pass a fake. */
  readonly uid?: () => number;
}

const QUERY_TIMEOUT_MS = 60_000;
const APT_TIMEOUT_MS = 30 * 60_000;
// apt's own words when it has no such package: locate (not in any list) or candidate (listed, nothing to install).
const NOT_FOUND_RE = /Unable to locate package (\S+)|Package '?([^'\s]+)'? has no installation candidate/g;

/**
 * Makes sure the build's Debian packages are installed before configure. A tree whose library is missing would
 * otherwise fetch its own copy at build time (MariaDB's libfmt and pcre2), which fails without network, or leave a
 * feature out without a word. What is missing is installed with apt-get when allowed (once more after an
 * `apt-get update` when apt knows no such package); what cannot be installed stops the build with one line naming
 * each package and apt's reason. A host without dpkg-query (not Debian) is not checked: one warning, and cmake says
 * what it lacks.
 */
export async function ensureBuildPackages(opts: BuildPackagesOptions): Promise<void> {
  if (opts.packages.length === 0) return;
  const log = opts.log.child({ component: 'build' });
  const missing = await missingPackages(opts);
  if (missing === undefined) {
    log.warn({ packages: opts.packages }, "dpkg-query not found: the build profile's packages are not checked");
    return;
  }
  if (missing.length === 0) return;
  const uid = (opts.uid ?? (() => process.getuid?.() ?? 0))();
  if (!opts.install) throw new BuildPackagesError(missing, 'install_build_packages is off');
  if (uid !== 0) throw new BuildPackagesError(missing, 'qpswatch is not root, so it cannot install them');
  log.info({ packages: missing }, 'installing the Debian packages the build needs');
  let failed = await aptGet(['install', '-y', '-q', '--no-install-recommends', '--', ...missing], opts);
  if (failed !== undefined && notFound(failed).length > 0) {
    log.info({ packages: notFound(failed) }, 'apt-get knows no such package: updating its lists once');
    await aptGet(['update', '-q'], opts);
    failed = await aptGet(['install', '-y', '-q', '--no-install-recommends', '--', ...missing], opts);
  }
  const still = (await missingPackages(opts)) ?? [];
  if (still.length === 0) return;
  const unknown = failed === undefined ? [] : notFound(failed);
  const named = unknown.filter((p) => still.includes(p));
  throw new BuildPackagesError(
    named.length > 0 ? named : still,
    named.length > 0
      ? 'apt-get has no such package on this host'
      : `apt-get could not install them (${failed === undefined ? 'it said nothing' : aptReason(failed)})`,
  );
}

/** The packages dpkg does not have installed; undefined when there is no dpkg-query. */
async function missingPackages(opts: BuildPackagesOptions): Promise<string[] | undefined> {
  const runner = opts.runner ?? run;
  let result: RunResult;
  try {
    // Unknown names make dpkg-query exit 1 with "no packages found matching" on stderr: they are missing too.
    result = await runner({
      argv: ['dpkg-query', '--show', '--showformat=${Package} ${db:Status-Status}\\n', '--', ...opts.packages],
      timeoutMs: QUERY_TIMEOUT_MS,
      allowFailure: true,
      log: opts.log,
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    });
  } catch (err) {
    if (err instanceof ExecNotFoundError) return undefined;
    throw err;
  }
  const installed = new Set(
    result.stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, status]) => status === 'installed')
      // dpkg-query names multi-arch packages without their :arch.
      .map(([name]) => name!.split(':')[0]!),
  );
  return opts.packages.filter((p) => !installed.has(p));
}

/** apt-get's result when it failed, else undefined. */
async function aptGet(args: readonly string[], opts: BuildPackagesOptions): Promise<RunResult | undefined> {
  const runner = opts.runner ?? run;
  try {
    const result = await runner({
      argv: ['apt-get', ...args],
      env: { ...defaultEnv(), DEBIAN_FRONTEND: 'noninteractive' },
      timeoutMs: APT_TIMEOUT_MS,
      allowFailure: true,
      tailLines: 20,
      log: opts.log,
      ...(opts.logFile !== undefined ? { logFile: opts.logFile } : {}),
      ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    });
    return result.exitCode === 0 ? undefined : result;
  } catch (err) {
    if (err instanceof ExecNotFoundError)
      throw new BuildPackagesError(opts.packages, 'apt-get is not on PATH to install them');
    throw err;
  }
}

function notFound(result: RunResult): string[] {
  const names = [...`${result.stderr}\n${result.stdout}`.matchAll(NOT_FOUND_RE)].map((m) => (m[1] ?? m[2])!);
  return [...new Set(names)];
}

/** apt's first "E:" line, else its last line. */
function aptReason(result: RunResult): string {
  const lines = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim());
  const reason = lines.find((l) => l.startsWith('E:')) ?? lines.filter((l) => l !== '').at(-1) ?? 'no output';
  return reason.length > 200 ? `${reason.slice(0, 197)}...` : reason;
}
