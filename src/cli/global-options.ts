import { UsageError } from './usage-error.js';

export interface GlobalOptions {
  configFile?: string;
  logLevel?: string;
  logFormat?: string;
  help: boolean;
  /** -q, --quiet: no progress line and no info lines, only warnings and errors. */
  quiet: boolean;
  rest: string[];
}

const VALUE_FLAGS: Record<string, 'configFile' | 'logLevel' | 'logFormat'> = {
  '--config': 'configFile',
  '--log-level': 'logLevel',
  '--log-format': 'logFormat',
  '-c': 'configFile',
};

/** Takes the options every command shares out of argv, wherever they stand; the rest goes to the command. */
export function takeGlobalOptions(argv: readonly string[]): GlobalOptions {
  const out: GlobalOptions = { help: false, quiet: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const key = VALUE_FLAGS[flag];
    if (key !== undefined) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${flag} needs a value`);
      out[key] = value;
    } else if (arg === '--') {
      out.rest.push(...argv.slice(i));
      break;
    } else if (arg === '--help' || arg === '-h') {
      out.help = true;
    } else if (arg === '--quiet' || arg === '-q') {
      out.quiet = true;
    } else {
      out.rest.push(arg);
    }
  }
  return out;
}
