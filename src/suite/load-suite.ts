import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { defaultScriptDirs, lookUpScript } from './script-lookup.js';
import { closestName, formatPath, kindOfValue, parseYamlText, valueAt } from '../config/index.js';
import { checkTrustedFile, readTrustedText, UnreadableFileError } from '../trust/index.js';
import { describeIssue } from './suite-issues.js';
import { RELATIVE_THREADS, SuiteFileSchema, type SuiteFile } from './suite-schema.js';
import {
  DEFAULT_BUDGET_MINUTES,
  SuiteError,
  type ScriptArgs,
  type Suite,
  type SuiteLevel,
  type SuiteLoad,
  type SuiteOverrides,
  type SuiteTest,
  type SuiteWarmup,
} from './suite.js';
import { isOwnedOption, optionName } from './sysbench-args.js';

/**
 * Reads a suite: a name ("quick": <suitesDir>/quick.yaml) or a path to a YAML file. Every script is resolved
 * to an absolute path now, so a typo fails before a server is started, not an hour into a session.
 */
export function loadSuite(
  nameOrPath: string,
  suitesDir: string,
  overrides: SuiteOverrides = {},
  scriptDirs: readonly string[] = defaultScriptDirs(),
): Suite {
  const file = suiteFile(nameOrPath, suitesDir);
  const parsed = parseSuiteFile(file, readYaml(file));
  const suite = build(parsed, file, scriptDirs, overrides.cores ?? availableParallelism());
  return applyOverrides(suite, overrides);
}

function suiteFile(nameOrPath: string, suitesDir: string): string {
  const isPath = nameOrPath.includes('/') || /\.ya?ml$/.test(nameOrPath);
  const file = isPath ? resolve(nameOrPath) : join(resolve(suitesDir), `${nameOrPath}.yaml`);
  if (existsSync(file)) return file;
  const known = existsSync(suitesDir)
    ? readdirSync(suitesDir)
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => f.replace(/\.ya?ml$/, ''))
    : [];
  const listing = known.length > 0 ? `suites in ${suitesDir}: ${known.sort().join(', ')}` : `no suites in ${suitesDir}`;
  throw new SuiteError(`suite "${nameOrPath}" not found: no file ${file}; ${listing}`, file);
}

/** A suite is a few KB of YAML: anything this large is the wrong file. */
const MAX_SUITE_BYTES = 1024 * 1024;

/** A suite may be any path: its problems name the line, never quote it (it could be /etc/passwd). */
function readYaml(file: string): unknown {
  let text: string;
  try {
    // A suite names the Lua scripts sysbench runs as root: one another user could change is refused.
    text = readTrustedText(file, { what: 'suite', elsewhere: "use a suite of root's", maxBytes: MAX_SUITE_BYTES });
  } catch (err) {
    if (!(err instanceof UnreadableFileError)) throw new SuiteError((err as Error).message, file);
    throw new SuiteError(`${file}: cannot be read (${err.code}): name a suite file`, file);
  }
  const parsed = parseYamlText(text);
  if (!parsed.ok) throw new SuiteError(`${file}: ${parsed.problems[0]!}`, file);
  if (parsed.value !== null && (typeof parsed.value !== 'object' || Array.isArray(parsed.value))) {
    throw new SuiteError(
      `${file}: line ${parsed.line}: a suite is a map of settings (name:, ` +
        `tests: ...), found ${kindOfValue(parsed.value)}`,
      file,
    );
  }
  return parsed.value;
}

function parseSuiteFile(file: string, raw: unknown): SuiteFile {
  const parsed = SuiteFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const lines = parsed.error.issues.map((issue) => describeIssue(file, raw, issue));
  throw new SuiteError(
    lines.join('\n'),
    file,
    first !== undefined ? formatPath(first.path) : undefined,
    first !== undefined ? valueAt(raw, first.path) : undefined,
  );
}

function build(parsed: SuiteFile, file: string, scriptDirs: readonly string[], cores: number): Suite {
  const ctx: Context = { file, dir: dirname(file), scriptDirs };
  const w = parsed.warmup;
  const tests = parsed.tests.map((t, i): UnloadedTest => ({
    name: t.name,
    script: t.script,
    scriptPath: scriptPath(ctx, `tests[${i}].script`, t.script),
    args: checkArgs(ctx, `tests[${i}].args`, t.args),
    seconds: t.seconds ?? parsed.defaults.seconds ?? missing(ctx, `tests[${i}].seconds`, 'defaults.seconds'),
    threads:
      parsed.levels !== undefined
        ? []
        : (t.threads ?? parsed.defaults.threads ?? missing(ctx, `tests[${i}].threads`, 'defaults.threads')),
  }));
  checkUniqueNames(ctx, tests);
  const shape = parsed.levels === undefined ? plainShape(ctx, parsed, tests) : levelShape(ctx, parsed, tests, cores);
  const load = shape.loads[0]!;
  const warmup: SuiteWarmup = {
    script: w.script,
    scriptPath: scriptPath(ctx, 'warmup.script', w.script),
    args: checkArgs(ctx, 'warmup.args', w.args),
    seconds: w.seconds,
    threads: w.threads,
    load,
  };
  return {
    name: parsed.name,
    description: parsed.description.trim(),
    file,
    load,
    loads: shape.loads,
    levels: shape.levels,
    warmup,
    tests: shape.tests,
    budgetMinutes: parsed.budget_minutes ?? DEFAULT_BUDGET_MINUTES,
    ...(parsed.memory !== undefined ? { memory: parsed.memory } : {}),
    ...(parsed.io_bound_buffer_pool !== undefined ? { ioBoundBufferPool: parsed.io_bound_buffer_pool } : {}),
  };
}

/** The database of a suite without levels, as before levels existed. */
const PLAIN_DATABASE = 'sbtest';
/** Every oltp_* script's `prepare` creates the same tables. */
const DEFAULT_LOAD_SCRIPT = 'oltp_read_only';

interface Shape {
  loads: SuiteLoad[];
  levels: SuiteLevel[];
  tests: SuiteTest[];
}

/** A test as the file gives it, before it is put on a load (and, with levels, on a level's threads). */
type UnloadedTest = Omit<SuiteTest, 'load'>;

/** No levels: every test on the one load, at its own thread counts. */
function plainShape(ctx: Context, parsed: SuiteFile, tests: UnloadedTest[]): Shape {
  if (parsed.load === undefined)
    throw new SuiteError(
      `${ctx.file}: load is missing: add load: { tables: 1, table_size: 10000 }, or levels: with a load each`,
      ctx.file,
      'load',
      undefined,
    );
  const load = suiteLoad(ctx, 'load', parsed.load, PLAIN_DATABASE);
  return { loads: [load], levels: [], tests: tests.map((t) => ({ ...t, load })) };
}

/**
 * Levels: each test once per level that runs it, at the level's one thread count, on the level's load. Levels with
 * the same load share one database; each other load gets a database of its own (sbtest_l1, sbtest_l2, ...).
 */
function levelShape(ctx: Context, parsed: SuiteFile, tests: UnloadedTest[], cores: number): Shape {
  if (parsed.load !== undefined)
    throw new SuiteError(
      `${ctx.file}: load is set, but the suite has levels: each level has its ` +
        `own load; move it into the levels (levels[i].load) and remove the ` +
        `top-level load`,
      ctx.file,
      'load',
      undefined,
    );
  const threadsSet = [
    parsed.defaults.threads !== undefined ? 'defaults.threads' : undefined,
    ...parsed.tests.map((t, i) => (t.threads !== undefined ? `tests[${i}].threads` : undefined)),
  ].find((f) => f !== undefined);
  if (threadsSet !== undefined)
    throw new SuiteError(
      `${ctx.file}: ${threadsSet} is set, but the suite has levels: each ` +
        `level sets the threads of its tests; remove ${threadsSet}`,
      ctx.file,
      threadsSet,
      undefined,
    );
  const loads: SuiteLoad[] = [];
  const levels = parsed.levels!.map((raw, i): SuiteLevel => {
    const field = `levels[${i}]`;
    const shaped = suiteLoad(ctx, `${field}.load`, raw.load, `sbtest_l${loads.length + 1}`);
    const same = loads.find((l) => sameData(l, shaped));
    const load = same ?? shaped;
    if (same === undefined) loads.push(load);
    const names = raw.tests ?? tests.map((t) => t.name);
    names.forEach((testName, j) => checkTestName(ctx, `${field}.tests[${j}]`, testName, tests));
    return { threadsSpec: raw.threads, threads: resolveThreads(raw.threads, cores), load, tests: [...new Set(names)] };
  });
  checkDistinctThreads(ctx, levels, cores);
  const expanded = levels.flatMap((lv) =>
    tests.filter((t) => lv.tests.includes(t.name)).map((t) => ({ ...t, threads: [lv.threads], load: lv.load })),
  );
  return { loads, levels, tests: expanded };
}

/** `cores`, `N*cores` or a whole number, on a host of `cores` CPUs. */
export function resolveThreads(spec: number | string, cores: number): number {
  if (typeof spec === 'number') return spec;
  const match = RELATIVE_THREADS.exec(spec);
  if (match === null) throw new RangeError(`not a thread count: ${JSON.stringify(spec)}`);
  return Number(match[1] ?? 1) * cores;
}

function suiteLoad(ctx: Context, field: string, raw: NonNullable<SuiteFile['load']>, database: string): SuiteLoad {
  const script = raw.script ?? DEFAULT_LOAD_SCRIPT;
  return {
    tables: raw.tables,
    tableSize: raw.table_size,
    script,
    scriptPath: scriptPath(ctx, `${field}.script`, script),
    args: checkArgs(ctx, `${field}.args`, raw.args ?? {}),
    database,
  };
}

function sameData(a: SuiteLoad, b: SuiteLoad): boolean {
  return (
    a.tables === b.tables &&
    a.tableSize === b.tableSize &&
    a.scriptPath === b.scriptPath &&
    JSON.stringify(a.args) === JSON.stringify(b.args)
  );
}

function checkTestName(ctx: Context, field: string, testName: string, tests: readonly UnloadedTest[]): void {
  const known = tests.map((t) => t.name);
  if (known.includes(testName)) return;
  const guess = closestName(testName, known);
  throw new SuiteError(
    `${ctx.file}: ${field} = ${JSON.stringify(testName)}: no such test in ` +
      `tests:${guess !== undefined ? ` (did you mean ${JSON.stringify(guess)}?)` : ''}; ` +
      `expected one of ${known.join(', ')}`,
    ctx.file,
    field,
    testName,
  );
}

/** A test is named by its name and threads: two levels that run it at the same count on this host would collide. */
function checkDistinctThreads(ctx: Context, levels: readonly SuiteLevel[], cores: number): void {
  levels.forEach((level, i) => {
    const j = levels.findIndex(
      (other, k) => k < i && other.threads === level.threads && other.tests.some((t) => level.tests.includes(t)),
    );
    if (j < 0) return;
    const other = levels[j]!;
    const shared = other.tests.filter((t) => level.tests.includes(t));
    throw new SuiteError(
      `${ctx.file}: levels[${j}].threads = ` +
        `${JSON.stringify(other.threadsSpec)} and levels[${i}].threads = ` +
        `${JSON.stringify(level.threadsSpec)} both come to ${level.threads} ` +
        `thread(s) on this host (cores = ${cores}), and both run ` +
        `${shared.join(', ')}: ` +
        ('a test runs once per thread count; give the levels different thread ' +
          'counts (or, on a host this small, leave one of them out) or different ' +
          'tests'),
      ctx.file,
      `levels[${i}].threads`,
      level.threadsSpec,
    );
  });
}

interface Context {
  file: string;
  dir: string;
  scriptDirs: readonly string[];
}

function scriptPath(ctx: Context, field: string, script: string): string {
  const found = lookUpScript(script, ctx.dir, ctx.scriptDirs);
  if (found.found) return trustedScript(ctx, field, found.path);
  const where = script.includes('/')
    ? `no file ${found.tried[0] ?? script}`
    : `looked for ${found.tried.map((p) => basename(p))[0]} in ${ctx.scriptDirs.join(', ')}`;
  throw new SuiteError(
    `${ctx.file}: ${field} = ${JSON.stringify(script)}: script not found ` +
      `(${where}); expected a stock sysbench script name such as ` +
      `oltp_point_select, a qpswatch script name such as points, or a path ` +
      `relative to the suite file`,
    ctx.file,
    field,
    script,
  );
}

/** sysbench runs a suite's Lua scripts as root, with os.execute: one another user could change is refused. */
function trustedScript(ctx: Context, field: string, path: string): string {
  try {
    checkTrustedFile(path, { what: 'Lua script', elsewhere: "use a script of root's" });
  } catch (err) {
    throw new SuiteError(`${ctx.file}: ${field}: ${(err as Error).message}`, ctx.file, field, path);
  }
  return path;
}

function checkArgs(ctx: Context, field: string, args: ScriptArgs): ScriptArgs {
  for (const [key, value] of Object.entries(args)) {
    if (isOwnedOption(key)) {
      throw new SuiteError(
        `${ctx.file}: ${field}.${key} = ${JSON.stringify(value)}: qpswatch sets ` +
          `--${optionName(key)} itself (from load, seconds, threads and the ` +
          `server it starts); remove it from args`,
        ctx.file,
        `${field}.${key}`,
        value,
      );
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new SuiteError(
        `${ctx.file}: ${field}.${key} = ${value}: expected a finite number`,
        ctx.file,
        `${field}.${key}`,
        value,
      );
    }
  }
  return args;
}

function missing(ctx: Context, field: string, fallback: string): never {
  throw new SuiteError(
    `${ctx.file}: ${field} is missing: set it on the test or set ${fallback}`,
    ctx.file,
    field,
    undefined,
  );
}

function checkUniqueNames(ctx: Context, tests: readonly UnloadedTest[]): void {
  const seen = new Set<string>();
  tests.forEach((test, i) => {
    if (seen.has(test.name)) {
      throw new SuiteError(
        `${ctx.file}: tests[${i}].name = ${JSON.stringify(test.name)}: another ` +
          `test has this name; expected names unique within the suite`,
        ctx.file,
        `tests[${i}].name`,
        test.name,
      );
    }
    seen.add(test.name);
  });
}

function applyOverrides(suite: Suite, overrides: SuiteOverrides): Suite {
  const { seconds, threads } = overrides;
  if (threads !== undefined && suite.levels.length > 0) {
    throw new SuiteError(
      `override threads = ${JSON.stringify(threads)}: suite ${suite.name} ` +
        `(${suite.file}) sets the threads per level (levels:); drop the threads ` +
        `override, or edit the levels`,
      suite.file,
      'threads',
      threads,
    );
  }
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 1)) {
    throw new SuiteError(`override seconds = ${seconds}: expected a whole number >= 1`, suite.file, 'seconds', seconds);
  }
  if (threads !== undefined && (threads.length === 0 || threads.some((t) => !Number.isInteger(t) || t < 1))) {
    throw new SuiteError(
      `override threads = ${JSON.stringify(threads)}: expected a non-empty list of whole numbers >= 1`,
      suite.file,
      'threads',
      threads,
    );
  }
  return {
    ...suite,
    warmup: { ...suite.warmup, seconds: seconds ?? suite.warmup.seconds },
    tests: suite.tests.map((t) => ({
      ...t,
      seconds: seconds ?? t.seconds,
      threads: threads !== undefined ? [...threads] : t.threads,
    })),
  };
}
