import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config, TargetConfig } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { buildPatches } from '../releases/index.js';
import { budgetRefusal, planSweeps, prepareTarget, roundsRefusal, suiteDataChangerRefusal } from '../session/index.js';
import { loadBuildProfile } from '../compile/index.js';
import { checkServerOptions, loadServerProfile, renderMyCnf } from '../server/index.js';
import { buildsFromSource, parseUpstream, type Upstream } from '../upstream/index.js';
import { loadSuite, type Suite } from '../suite/index.js';
import { checkStateFolders } from './state-folders.js';

/**
 * What a config names must exist and work together: each target's binary and profile, the rendered my.cnf as the
 * server itself reads it (`mysqld --help` rejects unknown options without starting), and the default suite.
 * Returns one line per problem.
 */
export async function checkReferences(config: Config, source: string, log: Logger): Promise<string[]> {
  const problems: string[] = [];
  const note = (err: unknown, what: string): void => {
    problems.push(`${source}: ${what}: ${err instanceof Error ? err.message : String(err)}`);
  };
  try {
    checkStateFolders(config);
  } catch (err) {
    note(err, 'folders');
  }
  for (const [name, target] of Object.entries(config.targets)) {
    try {
      await checkTarget(name, target, config, log);
    } catch (err) {
      note(err, `targets.${name}`);
    }
  }
  for (const [i, raw] of config.upstreams.entries()) {
    try {
      await checkUpstreamFiles(parseUpstream(raw), config);
    } catch (err) {
      note(err, `upstreams[${i}]`);
    }
  }
  try {
    const suite = loadSuite(config.suite, config.suites_dir);
    problems.push(...unreachableVerdicts(config, suite).map((line) => `${source}: ${line}`));
  } catch (err) {
    note(err, 'suite');
  }
  return problems;
}

/**
 * The files an upstream's releases are built and run with: its build profile and their patches, and its server
 * profile, each read through the trust check (root builds and runs what they say). A tarball upstream's releases are
 * unpacked, not built: it names no build profile (a source
 * upstream's are built as a git upstream's are). Patch files must be readable: a build reads their sha256 first.
 */
export async function checkUpstreamFiles(
  upstream: Upstream,
  config: Config,
  { builds = true }: { builds?: boolean } = {},
): Promise<void> {
  if (builds && buildsFromSource(upstream))
    await buildPatches(upstream, await loadBuildProfile(upstream.buildProfile, config.build_profiles_dir));
  await loadServerProfile(upstream.serverProfile, config.server_profiles_dir);
}

/**
 * Settings under which a session of the default suite could never reach a verdict: whole-run rounds whose smallest
 * p-value is above alpha; in the paired design a test running one of sysbench's stock scripts that change the loaded
 * tables, or a budget (the config's, the suite's or an upstream's) or max_pairs that stops before the first look. A
 * session refuses them too, but only when it is started; the daemon refuses them at its start.
 */
export function unreachableVerdicts(config: Config, suite: Suite): string[] {
  if (config.design === 'runs')
    return [roundsRefusal(config.rounds, config.alpha, 'config')].filter((l) => l !== undefined);
  // Said alone, as a session says it: whatever the budget, the design cannot judge such a suite.
  const changer = suiteDataChangerRefusal(suite);
  if (changer !== undefined) return [`suite ${suite.name}: ${changer}`];
  const budgets = new Map<string, number>([
    [
      config.budget_minutes !== undefined ? 'budget_minutes' : `suite ${suite.name}`,
      config.budget_minutes ?? suite.budgetMinutes,
    ],
  ]);
  for (const [i, raw] of config.upstreams.entries()) {
    const budget = (raw as { budget_minutes?: unknown }).budget_minutes;
    if (typeof budget === 'number') budgets.set(`upstreams[${i}].budget_minutes`, budget);
  }
  // One line per refusal: a max_pairs under the first look reads the same whatever the budget.
  const refusals = new Map<string, string>();
  for (const [where, minutes] of budgets) {
    const blocks = { alpha: config.alpha, instanceSeconds: config.instance_seconds };
    const refusal = budgetRefusal(planSweeps(suite, minutes, config.max_pairs, blocks), 'config');
    if (refusal !== undefined && !refusals.has(refusal)) refusals.set(refusal, where);
  }
  return [...refusals].map(([refusal, where]) => `${where}: ${refusal}`);
}

async function checkTarget(
  name: string,
  config: TargetConfig,
  { server_profiles_dir, cache_dir }: Config,
  log: Logger,
): Promise<void> {
  // A tarball target is unpacked into cache_dir here, once, as its first compare would.
  const target = await prepareTarget(name, config, server_profiles_dir, { log, cacheDir: cache_dir });
  const dir = await mkdtemp(join(tmpdir(), 'qpswatch-check-'));
  try {
    const paths = {
      datadir: join(dir, 'data'),
      socket: join(dir, 's.sock'),
      pidFile: join(dir, 'pid'),
      errorLog: join(dir, 'error.log'),
      tmpdir: dir,
      secureFileDir: join(dir, 'files'),
    };
    const cnf = join(dir, 'my.cnf');
    await writeFile(cnf, renderMyCnf(target.profile, target.binaries, paths));
    await checkServerOptions(target.binaries, cnf, log);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
