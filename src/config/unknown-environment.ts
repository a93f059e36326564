import { closestName } from './closest-name.js';
import { envName, type OptionSpec } from './option.js';
import { OPTIONS } from './options.js';

/**
 * QPSWATCH_* names that are no option but are read all the same: the config file's name, install.sh's, and the
 * ones qpswatch sets for the git credential helper it starts.
 */
const OTHER_NAMES = ['CONFIG', 'ROOT', 'PREFIX', 'NODE', 'LINT_BESIDE_BUILD'];
const OTHER_PREFIXES = ['GIT_'];

/**
 * One warning per QPSWATCH_ variable that names no option, with the nearest option's variable: a misspelt
 * QPSWATCH_TRESHOLD would otherwise be ignored without a word. Names only: a value may be a secret.
 */
export function unknownEnvironmentVariables(
  env: Readonly<Record<string, string | undefined>>,
  table: Readonly<Record<string, OptionSpec<unknown>>> = OPTIONS,
): string[] {
  const known = new Set<string>();
  for (const [name, spec] of Object.entries(table)) {
    known.add(envName(name));
    if (spec.secret === true) known.add(envName(`${name}_file`));
  }
  const warnings: string[] = [];
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith('QPSWATCH_') || known.has(variable) || env[variable] === undefined) continue;
    const rest = variable.slice('QPSWATCH_'.length);
    if (OTHER_NAMES.includes(rest) || OTHER_PREFIXES.some((p) => rest.startsWith(p))) continue;
    // QPSWATCH_CONFIG is a likely target too: a misspelt one leaves qpswatch without its config file.
    const guess = closestName(rest.toLowerCase(), [...Object.keys(table), 'config']);
    const shown = /^[A-Z0-9_]{1,64}$/.test(rest) ? variable : 'a QPSWATCH_ variable with an odd name';
    warnings.push(
      guess !== undefined
        ? `${shown} is no option and is ignored; did you mean ${envName(guess)}?`
        : `${shown} is no option and is ignored: \`qpswatch config options\` lists them`,
    );
  }
  return warnings;
}
