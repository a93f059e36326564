import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node's parseArgs, with its errors turned into UsageError carrying the command's help. */
export function parseCommandArgs<O extends Options>(
  args: string[],
  options: O,
  help: string,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message, help);
  }
}

/** A whole number from a flag, with the flag named when it is not one. */
export function integerFlag(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} ${JSON.stringify(value)}: expected a whole number from ${min} to ${max}`);
  return n;
}
