// Where a benchmark's pool lives: a throwaway state folder, one kept with --keep, or one judged again with --from.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../src/config/index.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/index.js';
import { compareSettings, runComparison, type CompareOutcome } from '../../src/session/index.js';
import { defaultSqlitePath, type Store } from '../../src/store/index.js';
import { loadSuite } from '../../src/suite/index.js';
import { poolFromSamples, type PairPool } from './paired-pool.js';

export interface PoolOptions {
  keep: string | undefined;
  from: string | undefined;
}

export function poolDirs(keep: string | undefined, from: string | undefined): PoolOptions {
  if (keep !== undefined && from !== undefined)
    throw new Error('--keep and --from exclude each other: --from judges a kept pool, it runs none to keep');
  return { keep: keep === undefined ? undefined : resolve(keep), from: from === undefined ? undefined : resolve(from) };
}

export function stateDirFor(options: PoolOptions, name: string): string {
  if (options.from !== undefined) {
    if (!existsSync(defaultSqlitePath(options.from)))
      throw new Error(
        `--from ${JSON.stringify(options.from)}: no qpswatch.sqlite there; give the folder passed to --keep`,
      );
    return options.from;
  }
  if (options.keep === undefined) {
    const dir = mkdtempSync(join(tmpdir(), `qpswatch-${name}-`));
    // mkdtemp makes it 0700: the server's own user (server_user, when qpswatch runs as root) must pass through it.
    chmodSync(dir, 0o711);
    return join(dir, 'state');
  }
  if (existsSync(options.keep) && readdirSync(options.keep).length > 0)
    throw new Error(
      `--keep ${JSON.stringify(options.keep)}: the folder is not empty; give ` +
        `a new or empty folder so no pool is mixed with another`,
    );
  mkdirSync(options.keep, { recursive: true });
  return options.keep;
}

/** What is left after the figures: a kept pool keeps only its store, a throwaway pool nothing. */
export function cleanUp(options: PoolOptions, stateDir: string): void {
  if (options.from !== undefined) return;
  if (options.keep === undefined) {
    rmSync(join(stateDir, '..'), { recursive: true, force: true });
    return;
  }
  for (const dir of ['work', 'run']) rmSync(join(stateDir, dir), { recursive: true, force: true });
}

/** The defaults of the option table, as a session on this host would use them. */
export function defaultConfig(): Config {
  return loadConfig({ env: { ...process.env, QPSWATCH_STATE_DIR: tmpdir() }, cwd: process.cwd() });
}

/**
 * Runs the pool: this host's MariaDB (profile relaxed) against itself, paired, every test in every sweep for
 * `pairs` sweeps. `binary` runs another launcher of the same server (e.g. one that moves itself into a cgroup).
 */
export async function runPool(
  stateDir: string,
  store: Store,
  suiteName: string,
  pairs: number,
  targets: { baseline?: string; candidate?: string } = {},
): Promise<PairPool> {
  const config = loadConfig({ env: { ...process.env, QPSWATCH_STATE_DIR: stateDir }, cwd: process.cwd() });
  const log = createLogger('info', process.stderr.isTTY === true ? 'pretty' : 'json');
  const target = (binary: string | undefined) =>
    binary === undefined
      ? { kind: 'installed' as const, flavor: 'mariadb' as const, basedir: '/usr', server_profile: 'relaxed' }
      : { kind: 'installed' as const, flavor: 'mariadb' as const, binary, server_profile: 'relaxed' };
  config.targets = { b: target(targets.baseline), c: target(targets.candidate) };
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('stopped by SIGINT')));
  const suite = loadSuite(suiteName, config.suites_dir);
  const started = Date.now();
  const outcome = await runComparison(
    {
      baseline: 'b',
      candidate: 'c',
      suite,
      rounds: 1,
      design: 'paired',
      maxPairs: pairs,
      budgetMinutes: 10080,
      sequential: false,
    },
    { settings: compareSettings(config), store, log, upstreams: [], signal: controller.signal },
  );
  const session = await store.getSession(outcome.sessionId);
  return poolFromSamples(
    await store.completedSamples(outcome.sessionId),
    suiteName,
    (Date.now() - started) / 1000 - loadSeconds(outcome.paired?.minutes, started),
    session?.settings ?? {},
  );
}

/**
 * One real paired session of this host's MariaDB (profile relaxed) against itself, judged by the sequential rule as
 * `compare` runs it: both targets loaded afresh, new server instances for every block. Independent of every other
 * session it is run beside: what bench:aa counts its false alarms over.
 */
export async function runRealSession(
  stateDir: string,
  store: Store,
  suiteName: string,
  budgetMinutes: number | undefined,
): Promise<CompareOutcome> {
  const config = loadConfig({ env: { ...process.env, QPSWATCH_STATE_DIR: stateDir }, cwd: process.cwd() });
  const log = createLogger('info', process.stderr.isTTY === true ? 'pretty' : 'json');
  const target = { kind: 'installed' as const, flavor: 'mariadb' as const, basedir: '/usr', server_profile: 'relaxed' };
  config.targets = { b: target, c: target };
  const controller = new AbortController();
  const stop = (): void => controller.abort(new Error('stopped by SIGINT'));
  process.once('SIGINT', stop);
  try {
    const suite = loadSuite(suiteName, config.suites_dir);
    return await runComparison(
      {
        baseline: 'b',
        candidate: 'c',
        suite,
        rounds: 1,
        design: 'paired',
        ...(budgetMinutes !== undefined ? { budgetMinutes } : {}),
      },
      { settings: compareSettings(config), store, log, upstreams: [], signal: controller.signal },
    );
  } finally {
    process.removeListener('SIGINT', stop);
  }
}

/** Only the measuring counts towards a pair's time: loading and warm-up are paid once per session. */
function loadSeconds(measuringMinutes: number | undefined, started: number): number {
  return measuringMinutes === undefined ? 0 : (Date.now() - started) / 1000 - measuringMinutes * 60;
}

/** The kept pool: the newest done session of the store; its measuring time is what its pairs took. */
export async function keptPool(store: Store): Promise<PairPool> {
  const [session] = await store.listSessions({ limit: 1, state: 'done' });
  if (session === undefined) throw new Error('the store has no finished session; keep a pool first with --keep DIR');
  const samples = await store.completedSamples(session.id);
  const seconds =
    samples.length < 2 ? 0 : (Date.parse(samples.at(-1)!.createdAt) - Date.parse(samples[0]!.createdAt)) / 1000;
  return poolFromSamples(samples, session.suite, seconds, session.settings);
}
