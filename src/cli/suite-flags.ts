import { isAbsolute, resolve } from 'node:path';
import { loadSuite, type Suite } from '../suite/index.js';
import type { CommandContext } from './command.js';
import { integerFlag } from './parse-args.js';
import { UsageError } from './usage-error.js';

/** The flags every command that runs a session shares. */
export const SUITE_FLAGS = {
  suite: { type: 'string' },
  rounds: { type: 'string' },
  seconds: { type: 'string' },
  threads: { type: 'string' },
} as const;

export const SUITE_FLAGS_HELP = `  --suite NAME|FILE    a suite in suites_dir (default: the suite option, quick)
  --rounds N           rounds (default: the rounds option; see docs/verdicts.md for why)
  --seconds N          override every test's duration (and the warm-up's)
  --threads LIST       override every test's client threads, e.g. 1,4`;

export interface SuiteFlagValues {
  suite?: string | undefined;
  rounds?: string | undefined;
  seconds?: string | undefined;
  threads?: string | undefined;
}

export function suiteFromFlags(values: SuiteFlagValues, ctx: CommandContext): { suite: Suite; rounds: number } {
  const rounds = integerFlag('--rounds', values.rounds, 1, 100) ?? ctx.config.rounds;
  const seconds = integerFlag('--seconds', values.seconds, 1, 86_400);
  const threads = values.threads === undefined ? undefined : parseThreads(values.threads);
  const suiteName = values.suite ?? ctx.config.suite;
  const suite = loadSuite(looksLikePath(suiteName) ? resolve(ctx.cwd, suiteName) : suiteName, ctx.config.suites_dir, {
    ...(seconds !== undefined ? { seconds } : {}),
    ...(threads !== undefined ? { threads } : {}),
  });
  return { suite, rounds };
}

function looksLikePath(name: string): boolean {
  return isAbsolute(name) || name.includes('/') || name.endsWith('.yaml') || name.endsWith('.yml');
}

function parseThreads(text: string): number[] {
  const list = text.split(',').map((t) => Number(t.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1 || n > 4096)) {
    throw new UsageError(`--threads ${JSON.stringify(text)}: expected a comma-separated list of whole numbers from 1 to 4096, e.g. 1,4`);
  }
  return list;
}
