import {
  ConfigError,
  loadConfig,
  OPTIONS,
  optionsAsMarkdown,
  optionsAsText,
  type Config,
  type OptionSpec,
} from '../config/index.js';
import { redactUrlCredentials } from '../log/index.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { UsageError } from './usage-error.js';
import { checkReferences } from './check-references.js';

const HELP = `Usage:
  qpswatch config check FILE   validate a config file: types, unknown keys, and that the targets,
                               server profiles and suite it names exist; exit 2 with one line per problem
  qpswatch config show         print the effective config (defaults < file < environment < flags) as JSON
  qpswatch config options      list every option with its environment variable, default and meaning
                               (--markdown: as the table in docs/configuration.md)
`;

export const configCommand: Command = {
  name: 'config',
  summary: 'check a config file, show the effective config, list the options',
  help: HELP,
  flags: { markdown: { type: 'boolean' } },
  positionals: true,
  examples: [
    {
      does: 'Check a config file: every problem in one run',
      line: 'qpswatch config check /etc/qpswatch/qpswatch.yaml',
    },
    { does: 'The options, grouped, with their variables and defaults', line: 'qpswatch config options' },
  ],
  needsConfig: true,
  readsConfigItself: (args) => args[0] === 'check',
  async run(args, ctx) {
    const [sub, ...rest] = args;
    switch (sub) {
      case 'check':
        return check(rest, ctx);
      case 'show':
        ctx.stdout(showConfig(ctx.config));
        return EXIT_OK;
      case 'options':
        ctx.stdout(rest.includes('--markdown') ? optionsAsMarkdown() : optionsAsText(ctx.columns));
        return EXIT_OK;
      default:
        throw new UsageError(
          sub === undefined ? 'config needs a subcommand' : `unknown config subcommand '${sub}'`,
          HELP,
        );
    }
  },
};

async function check(args: string[], ctx: CommandContext): Promise<number> {
  const file = args[0] ?? ctx.configFile;
  if (file === undefined || args.length > 1) throw new UsageError('config check takes one FILE', HELP);
  // Every problem in one run: values that are wrong keep their defaults, so the references are checked too, unless
  // the file could not be read as YAML at all (its problems start with "config file FILE:"; the checks of what it
  // names would then be about the defaults, not the file).
  const problems: string[] = [];
  const config = loadConfig({ file, env: ctx.env, cwd: ctx.cwd, problems });
  const unreadable = problems.some((p) => p.startsWith(`config file ${file}:`));
  if (!unreadable) problems.push(...(await checkReferences(config, file, ctx.log)));
  if (problems.length > 0) throw new ConfigError(problems);
  ctx.stdout(`${file}: ok (${Object.keys(config.targets).length} targets)\n`);
  return EXIT_OK;
}

/**
 * The effective config as JSON. Secrets are shown as set or not, never printed (an empty value is not set), and a
 * password or token in a URL (a remote such as https://user:token@host/...) is hidden.
 */
export function showConfig(config: Config): string {
  const shown: Record<string, unknown> = { ...config };
  for (const option of Object.values(OPTIONS) as OptionSpec<unknown>[]) {
    if (option.secret === true) shown[option.name] = isSet(shown[option.name]) ? '(set)' : '(not set)';
  }
  return redactUrlCredentials(`${JSON.stringify(shown, null, 2)}\n`);
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}
