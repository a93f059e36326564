import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { defaultScriptDirs, lookUpScript } from './script-lookup.js';
import { formatPath, kindOfValue, parseYamlText, valueAt } from '../config/index.js';
import { describeIssue } from './suite-issues.js';
import { SuiteFileSchema, type SuiteFile } from './suite-schema.js';
import { DEFAULT_BUDGET_MINUTES, SuiteError, type ScriptArgs, type Suite, type SuiteLoad, type SuiteOverrides, type SuiteTest, type SuiteWarmup } from './suite.js';
import { isOwnedOption, optionName } from './sysbench-args.js';

/**
 * Reads a suite: a name ("quick": <suitesDir>/quick.yaml) or a path to a YAML file. Every script is resolved
 * to an absolute path now, so a typo fails before a server is started, not an hour into a session.
 */
export function loadSuite(nameOrPath: string, suitesDir: string, overrides: SuiteOverrides = {}, scriptDirs: readonly string[] = defaultScriptDirs()): Suite {
  const file = suiteFile(nameOrPath, suitesDir);
  const parsed = parseSuiteFile(file, readYaml(file));
  const suite = build(parsed, file, scriptDirs);
  return applyOverrides(suite, overrides);
}

function suiteFile(nameOrPath: string, suitesDir: string): string {
  const isPath = nameOrPath.includes('/') || /\.ya?ml$/.test(nameOrPath);
  const file = isPath ? resolve(nameOrPath) : join(resolve(suitesDir), `${nameOrPath}.yaml`);
  if (existsSync(file)) return file;
  const known = existsSync(suitesDir) ? readdirSync(suitesDir).filter((f) => /\.ya?ml$/.test(f)).map((f) => f.replace(/\.ya?ml$/, '')) : [];
  const listing = known.length > 0 ? `suites in ${suitesDir}: ${known.sort().join(', ')}` : `no suites in ${suitesDir}`;
  throw new SuiteError(`suite "${nameOrPath}" not found: no file ${file}; ${listing}`, file);
}

/** A suite may be any path: its problems name the line, never quote it (it could be /etc/passwd). */
function readYaml(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SuiteError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}): name a suite file`, file);
  }
  const parsed = parseYamlText(text);
  if (!parsed.ok) throw new SuiteError(`${file}: ${parsed.problems[0]!}`, file);
  if (parsed.value !== null && (typeof parsed.value !== 'object' || Array.isArray(parsed.value))) {
    throw new SuiteError(`${file}: line ${parsed.line}: a suite is a map of settings (name:, tests: ...), found ${kindOfValue(parsed.value)}`, file);
  }
  return parsed.value;
}

function parseSuiteFile(file: string, raw: unknown): SuiteFile {
  const parsed = SuiteFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const lines = parsed.error.issues.map((issue) => describeIssue(file, raw, issue));
  throw new SuiteError(lines.join('\n'), file, first !== undefined ? formatPath(first.path) : undefined, first !== undefined ? valueAt(raw, first.path) : undefined);
}

function build(parsed: SuiteFile, file: string, scriptDirs: readonly string[]): Suite {
  const ctx: Context = { file, dir: dirname(file), scriptDirs };
  const load: SuiteLoad = {
    tables: parsed.load.tables,
    tableSize: parsed.load.table_size,
    script: parsed.load.script,
    scriptPath: scriptPath(ctx, 'load.script', parsed.load.script),
    args: checkArgs(ctx, 'load.args', parsed.load.args),
  };
  const w = parsed.warmup;
  const warmup: SuiteWarmup = { script: w.script, scriptPath: scriptPath(ctx, 'warmup.script', w.script), args: checkArgs(ctx, 'warmup.args', w.args), seconds: w.seconds, threads: w.threads, load };
  const tests = parsed.tests.map((t, i): SuiteTest => ({
    name: t.name,
    script: t.script,
    scriptPath: scriptPath(ctx, `tests[${i}].script`, t.script),
    args: checkArgs(ctx, `tests[${i}].args`, t.args),
    seconds: t.seconds ?? parsed.defaults.seconds ?? missing(ctx, `tests[${i}].seconds`, 'defaults.seconds'),
    threads: t.threads ?? parsed.defaults.threads ?? missing(ctx, `tests[${i}].threads`, 'defaults.threads'),
    load,
  }));
  checkUniqueNames(ctx, tests);
  return { name: parsed.name, description: parsed.description.trim(), file, load, warmup, tests, budgetMinutes: parsed.budget_minutes ?? DEFAULT_BUDGET_MINUTES };
}

interface Context {
  file: string;
  dir: string;
  scriptDirs: readonly string[];
}

function scriptPath(ctx: Context, field: string, script: string): string {
  const found = lookUpScript(script, ctx.dir, ctx.scriptDirs);
  if (found.found) return found.path;
  const where = script.includes('/') ? `no file ${found.tried[0] ?? script}` : `looked for ${found.tried.map((p) => basename(p))[0]} in ${ctx.scriptDirs.join(', ')}`;
  throw new SuiteError(`${ctx.file}: ${field} = ${JSON.stringify(script)}: script not found (${where}); expected a stock sysbench script name such as oltp_point_select, a qpswatch script name such as points, or a path relative to the suite file`, ctx.file, field, script);
}

function checkArgs(ctx: Context, field: string, args: ScriptArgs): ScriptArgs {
  for (const [key, value] of Object.entries(args)) {
    if (isOwnedOption(key)) {
      throw new SuiteError(`${ctx.file}: ${field}.${key} = ${JSON.stringify(value)}: qpswatch sets --${optionName(key)} itself (from load, seconds, threads and the server it starts); remove it from args`, ctx.file, `${field}.${key}`, value);
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new SuiteError(`${ctx.file}: ${field}.${key} = ${value}: expected a finite number`, ctx.file, `${field}.${key}`, value);
    }
  }
  return args;
}

function missing(ctx: Context, field: string, fallback: string): never {
  throw new SuiteError(`${ctx.file}: ${field} is missing: set it on the test or set ${fallback}`, ctx.file, field, undefined);
}

function checkUniqueNames(ctx: Context, tests: readonly SuiteTest[]): void {
  const seen = new Set<string>();
  tests.forEach((test, i) => {
    if (seen.has(test.name)) {
      throw new SuiteError(`${ctx.file}: tests[${i}].name = ${JSON.stringify(test.name)}: another test has this name; expected names unique within the suite`, ctx.file, `tests[${i}].name`, test.name);
    }
    seen.add(test.name);
  });
}

function applyOverrides(suite: Suite, overrides: SuiteOverrides): Suite {
  const { seconds, threads } = overrides;
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 1)) {
    throw new SuiteError(`override seconds = ${seconds}: expected a whole number >= 1`, suite.file, 'seconds', seconds);
  }
  if (threads !== undefined && (threads.length === 0 || threads.some((t) => !Number.isInteger(t) || t < 1))) {
    throw new SuiteError(`override threads = ${JSON.stringify(threads)}: expected a non-empty list of whole numbers >= 1`, suite.file, 'threads', threads);
  }
  return {
    ...suite,
    warmup: { ...suite.warmup, seconds: seconds ?? suite.warmup.seconds },
    tests: suite.tests.map((t) => ({ ...t, seconds: seconds ?? t.seconds, threads: threads !== undefined ? [...threads] : t.threads })),
  };
}
