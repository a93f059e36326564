import type { z } from 'zod';

/** What an option's default may depend on: never on globals, so tests and the CLI pass their own. */
export interface DefaultContext {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  projectRoot: string;
  /** The machine's host name (os.hostname() unless a caller gives one). */
  hostName: string;
  /** Set when the config file is the installed service's: state and cache then default to the service's folders. */
  service?: { stateDir: string; cacheDir: string };
}

export interface OptionSpec<T> {
  /** The key in the YAML file and, upper-cased with a QPSWATCH_ prefix, the environment variable. */
  readonly name: string;
  readonly schema: z.ZodType<T>;
  /** Factories, so no array or object default is ever shared between two loaded configs. */
  readonly default: (ctx: DefaultContext) => T;
  /** The default as a person reads it, where it depends on the machine ("./var, or $STATE_DIRECTORY"). */
  readonly defaultDoc?: string;
  /** One sentence for `qpswatch config options` and docs/configuration.md. */
  readonly doc: string;
  /** How a person reads the type, used in error messages: "an integer from 0 to 65535". */
  readonly expected: string;
  /** Environment values are text; structured options take JSON there. */
  readonly envFormat: 'text' | 'number' | 'boolean' | 'json';
  /** Secrets never come from the YAML file: only from the environment or from a file named by `<name>_file`. */
  readonly secret?: boolean;
}

export function envName(optionName: string): string {
  return `QPSWATCH_${optionName.toUpperCase()}`;
}

/** The schema alone decides the option's type; the default is checked against it. */
export function defineOption<S extends z.ZodType>(
  spec: Omit<OptionSpec<z.output<S>>, 'schema'> & { schema: S },
): OptionSpec<z.output<S>> {
  return spec as OptionSpec<z.output<S>>;
}
