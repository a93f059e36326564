import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '../config/index.js';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The short flags people reach for first, given to a command that has the long one. -h, -V, -c and -q are the
 * global ones (global-options.ts).
 */
export const SHORT_FLAGS: Readonly<Record<string, string>> = {
  format: 'f',
  limit: 'n',
  suite: 's',
  upstream: 'u',
  output: 'o',
};

/** Flags every command takes (global-options.ts): suggested too, when a typo is nearer to one of them. */
export const GLOBAL_FLAG_NAMES = ['config', 'log-level', 'log-format', 'quiet', 'help', 'version'] as const;

/** The option table with the common short flags added where the command has the long one. */
export function withShortFlags<O extends Options>(options: O): O {
  const out: Options = {};
  for (const [name, spec] of Object.entries(options)) {
    const short = SHORT_FLAGS[name];
    out[name] = short !== undefined && spec.short === undefined ? { ...spec, short } : spec;
  }
  return out as O;
}

/**
 * node's parseArgs, after a check of its own that says what is wrong in one line with the fix: an unknown flag with
 * the nearest known one (`unknown option --fromat; did you mean --format?`), a flag without its value, a value given
 * to a switch, an argument the command does not take. A negative number after a flag that takes a value is that
 * value (`--limit -3`), so its own check says why it is refused.
 */
export function parseCommandArgs<O extends Options>(
  args: string[],
  options: O,
  help: string,
  allowPositionals = false,
) {
  const table = withShortFlags(options);
  const normalized = joinNegativeValues(args, table);
  checkFlags(normalized, table, help, allowPositionals);
  try {
    return parseArgs({ args: normalized, options: table, allowPositionals, strict: true });
  } catch (err) {
    // checkFlags has said what it knows how to say; what remains is parseArgs's own text, on one line.
    throw new UsageError(((err as Error).message.split('\n')[0] ?? '').trim(), help);
  }
}

function joinNegativeValues(args: readonly string[], table: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const spec = specOf(arg, table);
    const next = args[i + 1];
    if (spec?.type === 'string' && !arg.includes('=') && next !== undefined && /^-[0-9.]/.test(next)) {
      out.push(`${arg.startsWith('--') ? arg : `--${nameOf(arg, table)}`}=${next}`);
      i += 1;
    } else {
      out.push(arg);
    }
  }
  return out;
}

function checkFlags(args: readonly string[], table: Options, help: string, allowPositionals: boolean): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return;
    if (!arg.startsWith('-') || arg === '-') {
      if (!allowPositionals)
        throw new UsageError(`unexpected argument ${JSON.stringify(arg)}: this command takes only options`, help);
      continue;
    }
    const spec = specOf(arg, table);
    if (spec === undefined) throw new UsageError(unknownOptionText(arg, table), help);
    const flag = `--${nameOf(arg, table)}`;
    const inline = arg.includes('=');
    if (spec.type === 'boolean' && inline) throw new UsageError(`${flag} is a switch and takes no value`, help);
    if (spec.type === 'string' && !inline) {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-'))
        throw new UsageError(`${flag} needs a value${next === undefined ? '' : `, found the flag ${next}`}`, help);
      i += 1;
    }
  }
}

/** The spec an argument names: `--name`, `--name=value`, or one short letter `-x`. */
function specOf(arg: string, table: Options): Options[string] | undefined {
  const name = nameOf(arg, table);
  return name === undefined ? undefined : table[name];
}

function nameOf(arg: string, table: Options): string | undefined {
  if (arg.startsWith('--')) {
    const name = arg.slice(2).split('=')[0]!;
    return Object.hasOwn(table, name) ? name : undefined;
  }
  if (arg.length !== 2) return undefined;
  return Object.entries(table).find(([, spec]) => spec.short === arg[1])?.[0];
}

/** `unknown option --fromat; did you mean --format?`, else the options the command takes. */
export function unknownOptionText(arg: string, table: Options): string {
  const typed = arg.replace(/^-+/, '').split('=')[0]!;
  const shown = arg.split('=')[0]!;
  const names = Object.keys(table);
  const guess = closestName(typed, [...names, ...GLOBAL_FLAG_NAMES]);
  if (guess !== undefined) return `unknown option ${shown}; did you mean --${guess}?`;
  if (names.length === 0) return `unknown option ${shown}: this command takes no options`;
  const listed = names.map((n) => `--${n}`);
  return names.length <= 8
    ? `unknown option ${shown}: this command takes ${listed.join(', ')}`
    : `unknown option ${shown}`;
}

/** A whole number from a flag, with the flag named when it is not one. */
export function integerFlag(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} ${JSON.stringify(value)}: expected a whole number from ${min} to ${max}`);
  return n;
}
