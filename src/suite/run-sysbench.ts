import { defaultEnv, run, type RunResult } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { findSysbench } from './find-sysbench.js';
import { parseSysbenchOutput, type SysbenchResult } from './sysbench-output.js';

export interface SysbenchRunOptions {
  /** sysbench's stdout and stderr are appended here as well. */
  logFile?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The sysbench program; by default found on PATH (findSysbench). */
  sysbench?: string;
  /** Given to exec: sysbench's exit, and a SIGKILL after an ignored SIGTERM, are logged there. */
  log?: Logger;
}

/** sysbench exited non-zero or was killed; the last lines of its output say why. */
export class SysbenchRunError extends Error {
  constructor(
    readonly argv: readonly string[],
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly tail: readonly string[],
    readonly logFile: string | undefined,
  ) {
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${exitCode}`;
    const last = tail
      .filter((l) => l.trim() !== '')
      .slice(-3)
      .join(' | ');
    super(
      `sysbench ${argv.at(-1) ?? ''} of ${argv.at(-2) ?? '?'} ` +
        `${how}${last !== '' ? `: ${last}` : ''}${logFile !== undefined ? ` (log: ${logFile})` : ''}`,
    );
    this.name = new.target.name;
  }
}

/**
 * Runs `sysbench <args> run` (args from runArgv or warmupArgv) and returns what it measured.
 * Throws SysbenchRunError on a non-zero exit, SysbenchOutputError when the report is incomplete,
 * and exec's ExecTimeoutError when it ran past timeoutMs.
 */
export async function runSysbench(args: readonly string[], opts: SysbenchRunOptions = {}): Promise<SysbenchResult> {
  const result = await execSysbench(args, opts);
  // FATAL lines go to stderr: parse both, so one printed after a report is not missed.
  return parseSysbenchOutput(`${result.stdout}\n${result.stderr}`);
}

/** Runs `sysbench <args> prepare` (args from prepareArgv): creates and fills the tables. */
export async function prepareSysbench(args: readonly string[], opts: SysbenchRunOptions = {}): Promise<void> {
  await execSysbench(args, opts);
}

/**
 * The statements `scriptPath` prepares or sends when a run starts, each once, whitespace folded, in its order
 * (`sysbench <args from statementsArgv>`, the script named in QPSWATCH_SCRIPT). Nothing is measured.
 */
export async function listStatements(
  scriptPath: string,
  args: readonly string[],
  opts: SysbenchRunOptions = {},
): Promise<string[]> {
  const result = await execSysbench(args, opts, { ...defaultEnv(), QPSWATCH_SCRIPT: scriptPath });
  return result.stdout.split('\n').flatMap((line) => (line.startsWith('statement\t') ? [line.slice(10)] : []));
}

async function execSysbench(
  args: readonly string[],
  opts: SysbenchRunOptions,
  env?: Record<string, string>,
): Promise<RunResult> {
  const argv = [opts.sysbench ?? findSysbench(), ...args];
  const result = await run({
    argv,
    ...(env !== undefined ? { env } : {}),
    logFile: opts.logFile,
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    allowFailure: true,
    log: opts.log,
    dieWithParent: true,
  });
  if (result.exitCode !== 0)
    throw new SysbenchRunError(argv, result.exitCode, result.signal, result.tail, opts.logFile);
  return result;
}
