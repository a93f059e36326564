import { isAbsolute, resolve } from 'node:path';
import type { SessionDesignName } from '../model/index.js';
import { loadSuite, type Suite } from '../suite/index.js';
import type { CommandContext } from './command.js';
import { integerFlag } from './parse-args.js';
import { UsageError } from './usage-error.js';

/** The flags every command that runs a session shares. */
export const SUITE_FLAGS = {
  suite: { type: 'string' },
  design: { type: 'string' },
  pairs: { type: 'string' },
  budget: { type: 'string' },
  rounds: { type: 'string' },
  seconds: { type: 'string' },
  threads: { type: 'string' },
} as const;

export const SUITE_FLAGS_HELP = `  --suite NAME|FILE    a suite in suites_dir (default: the suite option, quick)
  --design D           paired (default: both servers up, tests measured in alternating pairs until
                       decided) or runs (whole-suite runs in rounds, one server at a time)
  --budget MIN         paired: minutes of pairs at most (default: budget_minutes, else the suite's)
  --pairs N            paired: pairs per test at most (default: max_pairs, 200); looks at 8, 12, 18, 27...
  --rounds N           runs: rounds (default: the rounds option); implies --design runs
  --seconds N          override every test's duration (and the warm-up's)
  --threads LIST       override every test's client threads, e.g. 1,4`;

export interface SuiteFlagValues {
  suite?: string | undefined;
  design?: string | undefined;
  pairs?: string | undefined;
  budget?: string | undefined;
  rounds?: string | undefined;
  seconds?: string | undefined;
  threads?: string | undefined;
}

/** How a session is to be measured, as the flags say; what they leave out comes from the config. */
export interface SessionShape {
  design?: SessionDesignName;
  budgetMinutes?: number;
  maxPairs?: number;
}

export function suiteFromFlags(
  values: SuiteFlagValues,
  ctx: CommandContext,
): { suite: Suite; rounds: number; shape: SessionShape } {
  const rounds = integerFlag('--rounds', values.rounds, 1, 100) ?? ctx.config.rounds;
  const shape = sessionShape(values);
  const seconds = integerFlag('--seconds', values.seconds, 1, 86_400);
  const threads = values.threads === undefined ? undefined : parseThreads(values.threads);
  const suiteName = values.suite ?? ctx.config.suite;
  const suite = loadSuite(looksLikePath(suiteName) ? resolve(ctx.cwd, suiteName) : suiteName, ctx.config.suites_dir, {
    ...(seconds !== undefined ? { seconds } : {}),
    ...(threads !== undefined ? { threads } : {}),
  });
  return { suite, rounds, shape };
}

function sessionShape(values: SuiteFlagValues): SessionShape {
  if (values.design !== undefined && values.design !== 'paired' && values.design !== 'runs') {
    throw new UsageError(`--design ${JSON.stringify(values.design)}: expected paired or runs`);
  }
  const design = values.design ?? (values.rounds !== undefined ? 'runs' : undefined);
  if (design === 'paired' && values.rounds !== undefined)
    throw new UsageError(
      '--rounds is for the whole-run design: with --design paired, give --pairs or --budget instead',
    );
  if (design === 'runs' && (values.pairs !== undefined || values.budget !== undefined))
    throw new UsageError('--pairs and --budget are for the paired design: with --design runs, give --rounds instead');
  const maxPairs = integerFlag('--pairs', values.pairs, 2, 1000);
  const budgetMinutes = values.budget === undefined ? undefined : minutes(values.budget);
  return {
    ...(design !== undefined ? { design } : {}),
    ...(maxPairs !== undefined ? { maxPairs } : {}),
    ...(budgetMinutes !== undefined ? { budgetMinutes } : {}),
  };
}

function minutes(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 10080)
    throw new UsageError(
      `--budget ${JSON.stringify(text)}: expected minutes, a number greater than 0 and at most 10080, e.g. 10 or 2.5`,
    );
  return n;
}

function looksLikePath(name: string): boolean {
  return isAbsolute(name) || name.includes('/') || name.endsWith('.yaml') || name.endsWith('.yml');
}

function parseThreads(text: string): number[] {
  const list = text.split(',').map((t) => Number(t.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1 || n > 4096)) {
    throw new UsageError(
      `--threads ${JSON.stringify(text)}: expected a comma-separated list of whole numbers from 1 to 4096, e.g. 1,4`,
    );
  }
  return list;
}
