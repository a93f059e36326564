import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Command } from '../../src/cli/command.js';
import { findCommand } from '../../src/cli/commands.js';
import { takeGlobalOptions } from '../../src/cli/global-options.js';
import { parseCommandArgs } from '../../src/cli/parse-args.js';
import { projectRoot } from '../helpers/paths.js';

/**
 * The README and the docs show commands a person will copy: each `qpswatch CMD ...` (or `node bin/qpswatch.js ...`)
 * must name a command that exists, with flags its own option table parses, and each `npm run X` a script of
 * package.json. Their links to other docs, and the sections they name, must be there. No command is run.
 */
const README = 'README.md';
const DOCS = ['README.md', ...readdirSync(join(projectRoot, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

const read = (file: string): string => readFileSync(join(projectRoot, file), 'utf8');

const PackageJson = z.object({ scripts: z.record(z.string(), z.string()) });
const SCRIPTS = PackageJson.parse(JSON.parse(read('package.json'))).scripts;

/** One command line a doc shows, with where it stands. */
interface Shown {
  file: string;
  line: number;
  text: string;
  /** Words that stand for `q` where the block defines `q() { node bin/qpswatch.js ... "$@"; }`. */
  alias?: string[];
}

/** Shell-like words: quotes group and are taken off; a `#` that starts a word starts a comment. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === '#' && word === undefined) {
      break;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The simple commands of a line: split at `&&`, `||`, `;` and a pipe; a redirection ends its command. */
function simpleCommands(words: readonly string[]): string[][] {
  const out: string[][] = [[]];
  let redirected = false;
  for (const word of words) {
    if (['&&', '||', ';', '|', '\\|'].includes(word)) {
      out.push([]);
      redirected = false;
    } else if (word.endsWith(';')) {
      if (!redirected) out.at(-1)!.push(word.slice(0, -1));
      out.push([]);
      redirected = false;
    } else if (/^[0-9]*[<>]/.test(word)) {
      redirected = true;
    } else if (!redirected) {
      out.at(-1)!.push(word);
    }
  }
  return out.filter((c) => c.length > 0);
}

const FENCE = /^\s*(```+|~~~+)\s*([\w-]*)/;
const SHELL_FENCES = new Set(['', 'sh', 'bash', 'shell', 'console']);
const ALIAS = /^\s*q\(\)\s*\{\s*(.*?)\s*"\$@";?\s*\}/;
const INLINE_CODE = /`([^`\n]+)`/g;

/** Every line of a shell block, and every inline code span that starts like a command. */
function shownCommands(file: string): Shown[] {
  const lines = read(file).split('\n');
  const out: Shown[] = [];
  let fence: { shell: boolean; alias?: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const open = FENCE.exec(text);
    if (open !== null) {
      fence = fence === undefined ? { shell: SHELL_FENCES.has(open[2]!) } : undefined;
      continue;
    }
    if (fence !== undefined) {
      if (!fence.shell) continue;
      const alias = ALIAS.exec(text);
      if (alias !== null) fence.alias = shellWords(alias[1]!);
      else out.push({ file, line: i + 1, text, ...(fence.alias ? { alias: fence.alias } : {}) });
      continue;
    }
    for (const span of text.matchAll(INLINE_CODE)) {
      const code = span[1]!;
      if (/^(sudo )?([A-Z_]+=\S+ )*(qpswatch|npm|node bin\/qpswatch\.js)( |$)/.test(code))
        out.push({ file, line: i + 1, text: code.replace(/[[\]]/g, '') });
    }
  }
  return out;
}

/** The argv a shown command gives qpswatch, or undefined when it runs something else. */
function qpswatchArgv(words: readonly string[], alias: readonly string[] | undefined): string[] | undefined {
  let rest = [...words];
  while (rest[0] === 'sudo' || /^[A-Z_]+=/.test(rest[0] ?? '')) rest = rest.slice(1);
  if (rest[0] === 'q' && alias !== undefined) rest = [...alias, ...rest.slice(1)];
  if (rest[0] === 'qpswatch') return rest.slice(1);
  if (rest[0] === 'node' && rest[1] === 'bin/qpswatch.js') return rest.slice(2);
  return undefined;
}

/** The npm script a shown command runs (`npm run X`, `npm test`), or undefined. */
function npmScript(words: readonly string[]): string | undefined {
  let rest = [...words];
  while (/^[A-Z_]+=/.test(rest[0] ?? '')) rest = rest.slice(1);
  if (rest[0] !== 'npm') return undefined;
  if (rest[1] === 'test') return 'test';
  if (rest[1] !== 'run') return undefined;
  return rest.slice(2).find((w) => !w.startsWith('-'));
}

/** The subcommands a command's help names (`qpswatch config check FILE`): lower-case words after its name. */
function subcommands(command: Command): Set<string> {
  const pattern = new RegExp(`qpswatch ${command.name} ([a-z][a-z-]*)\\b`, 'g');
  return new Set([...command.help.matchAll(pattern)].map((m) => m[1]!));
}

/** Checks argv as qpswatch's own parser would take it: global options, the command, its subcommand, its flags. */
function checkArgv(argv: readonly string[]): void {
  const globals = takeGlobalOptions(argv);
  const [name, ...args] = globals.rest;
  // `qpswatch help COMMAND`, `qpswatch COMMAND --help`: a word in capitals stands for any command.
  const placeholder = (word: string | undefined) => word === undefined || /^[A-Z]+$/.test(word);
  if (placeholder(name) || name === '--version' || name === '-V') return;
  if (name === 'help') {
    if (!placeholder(args[0])) findCommand(args[0]!);
    return;
  }
  const command = findCommand(name!);
  const { positionals } = parseCommandArgs(args, command.flags, command.help, command.positionals);
  const subs = subcommands(command);
  if (subs.size > 0 && !subs.has(positionals[0] ?? ''))
    throw new Error(`${command.name} has no subcommand ${JSON.stringify(positionals[0])}: ${[...subs].join(', ')}`);
}

/** The line's simple commands, each checked; the problems, one line each. */
function problemsOf(shown: Shown): string[] {
  const where = `${shown.file}:${shown.line}: ${shown.text.trim()}`;
  const problems: string[] = [];
  for (const words of simpleCommands(shellWords(shown.text))) {
    const script = npmScript(words);
    if (script !== undefined && !Object.hasOwn(SCRIPTS, script))
      problems.push(`${where}: no npm script ${JSON.stringify(script)} in package.json`);
    const argv = qpswatchArgv(words, shown.alias);
    if (argv === undefined) continue;
    try {
      checkArgv(argv);
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message}`);
    }
  }
  return problems;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, ... */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The headings of a doc, as the docs name them in quotes ("Measured", "Instructions per query"). */
function headings(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').flatMap((line) => {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*$/.exec(line);
    return heading === null ? [] : [heading[1]!.replace(/`/g, '')];
  });
}

/** Markdown links to files of the project: [text](path#anchor). */
function linkProblems(file: string): string[] {
  const problems: string[] = [];
  const text = read(file);
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue;
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const full = path === '' ? join(projectRoot, file) : join(projectRoot, dirname(file), path);
    if (!existsSync(full)) {
      problems.push(`${file}: link to ${target}: no file ${relative(projectRoot, full)}`);
      continue;
    }
    if (anchor !== undefined && full.endsWith('.md') && !anchors(readFileSync(full, 'utf8')).has(anchor))
      problems.push(`${file}: link to ${target}: no heading with that anchor`);
  }
  return problems;
}

/**
 * The docs' own way to point at a section: `docs/verdicts.md, "Measured"` or `README "Where things are"` (the quoted
 * name starts a heading of that file), and every docs/NAME.md they name exists.
 */
function sectionProblems(file: string): string[] {
  const problems: string[] = [];
  const text = read(file).replace(/\n\s*/g, ' ');
  for (const [, name] of text.matchAll(/\b(docs\/[\w.-]+\.md)\b/g)) {
    if (!existsSync(join(projectRoot, name!))) problems.push(`${file}: names ${name}, which is not there`);
  }
  for (const [, target, section] of text.matchAll(/\b(docs\/[\w.-]+\.md|README)\b,? \(?"([^"]+)"/g)) {
    const path = target === 'README' ? README : target!;
    if (!existsSync(join(projectRoot, path))) continue;
    const shown = section!.replace(/`/g, '').toLowerCase();
    if (!headings(read(path)).some((h) => h.toLowerCase().startsWith(shown)))
      problems.push(`${file}: names the section "${section}" of ${path}, which has no such heading`);
  }
  return problems;
}

describe('the commands the README and the docs show', () => {
  test('the lines are found: the parsing of the docs is not vacuous', () => {
    const readme = shownCommands(README);
    assert.ok(readme.some((s) => /npm run quickstart/.test(s.text)));
    assert.ok(readme.some((s) => /compare --baseline old --candidate new/.test(s.text)));
    assert.ok(shownCommands('docs/commands.md').some((s) => s.alias !== undefined && /^q check /.test(s.text)));
  });

  for (const file of DOCS) {
    test(`${file}: every qpswatch command exists and its flags parse; every npm script exists`, () => {
      assert.deepEqual(shownCommands(file).flatMap(problemsOf), []);
    });
  }

  test('a wrong command, flag or script is caught', () => {
    const wrong = (text: string) => problemsOf({ file: 'x.md', line: 1, text });
    assert.match(wrong('qpswatch sesions').join(), /did you mean 'sessions'/);
    assert.match(wrong('node bin/qpswatch.js show 1 --fromat md').join(), /did you mean --format/);
    assert.match(wrong('qpswatch config chek x.yaml').join(), /no subcommand "chek"/);
    assert.match(wrong('npm run quickstrat').join(), /no npm script "quickstrat"/);
    assert.deepEqual(wrong('qpswatch report --series mariadb-10.11 --by-host > h.txt && npm test'), []);
  });
});

describe('the links and sections the README and the docs name', () => {
  for (const file of DOCS) {
    test(`${file}: links resolve, and the sections it names are there`, () => {
      assert.deepEqual([...linkProblems(file), ...sectionProblems(file)], []);
    });
  }
});

describe('the first screen of the README', () => {
  const lines = read(README).split('\n');
  const first = lines.slice(0, 60).join('\n');

  test('holds the two commands and the excerpt of real output', () => {
    assert.match(first, /^npm run quickstart\b/m);
    assert.match(first, /^npm test\b/m);
    const start = lines.indexOf('<!-- quickstart-excerpt:start -->');
    const end = lines.indexOf('<!-- quickstart-excerpt:end -->');
    assert.ok(
      start >= 0 && end > start && end < 60,
      `the excerpt's markers within the first 60 lines (${start}, ${end})`,
    );
    const excerpt = lines.slice(start + 1, end).join('\n');
    const [caption, output] = excerpt.split(/^```text$/m);
    assert.ok(output !== undefined, 'the output as printed, in a text block');
    assert.match(caption!, /`npm run quickstart`/, 'the command above the output');
    assert.match(caption!, /\b20\d\d-\d\d-\d\d\b/, 'the date of the run above the output');
    assert.match(output, /C\/B/, 'a relative-QPS table');
    assert.match(output, /\b(regression|ok|unstable|slower|improvement)\b/, 'its verdicts');
  });
});

describe('what the README says of the quickstart and the packages', () => {
  const readme = read(README);

  test("the threshold is config/quickstart.yaml's", () => {
    const { threshold } = z.object({ threshold: z.number() }).parse(parseYaml(read('config/quickstart.yaml')));
    assert.match(readme, new RegExp(`threshold of ${threshold.toFixed(2).replace('.', '\\.')}\\b`));
  });

  test('every Debian package scripts/ensure-deps.sh installs is named', () => {
    const packages = [...read('scripts/ensure-deps.sh').matchAll(/missing\+=\(([\w.+-]+)\)/g)].map((m) => m[1]!);
    assert.ok(packages.length >= 10, packages.join());
    assert.deepEqual(
      packages.filter((p) => !readme.includes(`\`${p}\``)),
      [],
    );
  });
});
