import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { machine } from 'node:os';
import { basename } from 'node:path';
import { fileSha256 } from '../compile/index.js';
import type { InstructionCounter } from '../instructions/index.js';
import type { JsonObject } from '../store/index.js';
import { LOAD_SEED, type Suite, type SuiteTest } from '../suite/index.js';
import type { PreparedTarget } from './target.js';

/** Bumped when what the lane counts or how changes: figures of another lane version never compare. */
export const LANE_VERSION = 1;
/** The measured run's and the warm-up's --rand-seed: every run asks the same queries in the same order. */
export const MEASURE_SEED = 1;
export const WARMUP_SEED = 2;

/** What every figure of a session's lane shares: the counter, the plan, the host's CPU and C library. */
export interface LaneBasis {
  counter: InstructionCounter;
  /** What is counted: the dispatcher function under callgrind, the event under perf. */
  collect: string;
  events: number;
  warmupEvents: number;
  cpuModel: string;
}

/**
 * Everything a test's figure depends on besides the binary: figures with equal conditions compare directly, in one
 * session or across sessions (a release against the series' base). The script is named by its content's hash, since
 * an edited script asks other queries; the profile by its settings and overrides, not by the my.cnf a version gets.
 */
export async function laneConditions(
  basis: LaneBasis,
  suite: Suite,
  test: SuiteTest,
  target: PreparedTarget,
): Promise<{ conditions: JsonObject; conditionKey: string }> {
  const conditions: JsonObject = {
    lane: LANE_VERSION,
    counter: basis.counter.kind,
    counterVersion: basis.counter.version,
    collect: basis.collect,
    suite: suite.name,
    test: test.name,
    script: basename(test.scriptPath),
    scriptSha256: await shortHash(test.scriptPath),
    args: { ...test.args },
    threads: 1,
    load: {
      tables: test.load.tables,
      tableSize: test.load.tableSize,
      script: basename(test.load.scriptPath),
      args: { ...test.load.args },
      // prepare's seed: the rows a load holds. A load from another seed counts other rows.
      seed: LOAD_SEED,
    },
    events: basis.events,
    warmupEvents: basis.warmupEvents,
    seeds: { measure: MEASURE_SEED, warmup: WARMUP_SEED },
    serverProfile: target.profile.name,
    serverProfileSha256: hashOf({ settings: target.profile.settings, overrides: target.profile.overrides }),
    arch: machine(),
    cpuModel: basis.cpuModel,
    libc: libcVersion(),
  };
  return { conditions, conditionKey: hashOf(conditions) };
}

/**
 * The binary a figure counted: a built release's key, a tarball's sha256, else the sha256 of the mysqld file itself
 * (an installed server), so one binary's figures compare whatever session measured them.
 */
export async function binaryIdentity(target: PreparedTarget): Promise<string> {
  const { description } = target.ref;
  if (typeof description['buildKey'] === 'string') return description['buildKey'];
  if (typeof description['sha256'] === 'string') return `sha256:${description['sha256'].slice(0, 16)}`;
  return `sha256:${(await fileSha256(target.binaries.mysqld)).slice(0, 16)}`;
}

/** JSON with its keys sorted at every level, so the same conditions always hash the same. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

async function shortHash(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex')
    .slice(0, 16);
}

let libc: string | undefined;

/**
 * glibc's version (its memcpy and memset are picked per CPU and differ by release); '' where there is none. Read once:
 * a process report takes some milliseconds.
 */
function libcVersion(): string {
  if (libc === undefined) {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    libc = report?.header?.glibcVersionRuntime ?? '';
  }
  return libc;
}
