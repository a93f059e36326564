import { LineCounter, parseDocument } from 'yaml';

/**
 * YAML text from a file a person named (a config, a suite), parsed without ever quoting the file back: the file
 * may be anything (an env file with a password, /etc/passwd), so problems name the line and what is wrong, and
 * never hold the line's text.
 */
export type YamlText = { ok: true; value: unknown; line: number } | { ok: false; problems: string[] };

/** Aliases a file may use before it counts as an alias bomb (yaml's own default, named here so it stays). */
const MAX_ALIAS_COUNT = 100;

export function parseYamlText(text: string): YamlText {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    const problems = doc.errors
      .filter((e) => !hiddenBehindMultiline(e, doc.errors))
      .map((e) => `line ${errorLine(e, text, lineCounter)}: not valid YAML (${plainWords(e)})`);
    return { ok: false, problems: [...new Set(problems)] };
  }
  const start = doc.contents?.range[0] ?? 0;
  let value: unknown;
  try {
    // yaml refuses a document whose aliases would expand out of all proportion (an alias bomb), by throwing here.
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    return { ok: false, problems: [`line 1: not valid YAML (${firstLine((err as Error).message)})`] };
  }
  return { ok: true, value, line: lineCounter.linePos(start).line };
}

type YamlError = ReturnType<typeof parseDocument>['errors'][number];

/**
 * The line a person must fix. yaml places a key that runs on over two lines at the start of the run: for
 * `a: 1` followed by ` b: 2` (one space too many) that is line 1, where nothing is wrong. When the run starts after
 * other text on its line (a value), the fault is on the next line, where the run went on.
 */
function errorLine(e: YamlError, text: string, lines: LineCounter): number {
  const { line, col } = lines.linePos(e.pos[0]);
  if (e.code !== 'MULTILINE_IMPLICIT_KEY') return line;
  const before = text.slice(e.pos[0] - (col - 1), e.pos[0]);
  return before.trim() === '' ? line : line + 1;
}

/** yaml reports a key that runs on twice, once as a "nested mapping": the second says nothing more. */
function hiddenBehindMultiline(e: YamlError, all: readonly YamlError[]): boolean {
  return (
    e.code === 'BLOCK_AS_IMPLICIT_KEY' && all.some((o) => o.code === 'MULTILINE_IMPLICIT_KEY' && o.pos[0] === e.pos[0])
  );
}

/** yaml's wording, with the fix said for the mistakes people make most. */
function plainWords(e: YamlError): string {
  if (e.code === 'MULTILINE_IMPLICIT_KEY')
    return 'a line that continues the one above: check its indentation, or a missing ":" after a key';
  if (e.code === 'TAB_AS_INDENT') return 'a tab in the indentation: indent with spaces';
  return firstLine(e.message);
}

/**
 * yaml's own wording without its excerpt of the source (only prettyErrors adds one; this is the belt to those braces).
 */
function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? '';
  return line.replace(/ at line \d+, column \d+:?$/, '').slice(0, 120);
}

/** What a top-level value is, in words, without its content: for "must be a map, found ...". */
export function kindOfValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return `a list of ${value.length} item(s)`;
  if (typeof value === 'string') return `text of ${value.length} character(s)`;
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'true or false';
  return typeof value;
}
