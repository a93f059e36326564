import { envName, type OptionSpec } from './option.js';
import { OPTIONS } from './options.js';

function defaultText(option: OptionSpec<unknown>): string {
  if (option.defaultDoc !== undefined) return option.defaultDoc;
  if (option.secret === true) return '(none)';
  return JSON.stringify(option.default({ env: {}, cwd: '.', projectRoot: '.', hostName: 'localhost' }));
}

const options = (): OptionSpec<unknown>[] => Object.values(OPTIONS) as OptionSpec<unknown>[];

/** The option table for a terminal (`qpswatch config options`). */
export function optionsAsText(): string {
  return options()
    .map((o) => `${o.name}  (${envName(o.name)})\n    ${o.doc}\n    expects ${o.expected}; default ${defaultText(o)}\n`)
    .join('\n');
}

/** The option table as docs/configuration.md shows it; a unit test keeps that file equal to this. */
export function optionsAsMarkdown(): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const rows = options().map(
    (o) =>
      `| \`${o.name}\` | \`${envName(o.name)}\` | ${cell(o.expected)} | ${cell(defaultText(o))} | ${cell(o.doc)} |`,
  );
  return (
    ['| option | environment | expects | default | meaning |', '| --- | --- | --- | --- | --- |', ...rows].join('\n') +
    '\n'
  );
}
