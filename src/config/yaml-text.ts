import { LineCounter, parseDocument } from 'yaml';

/**
 * YAML text from a file a person named (a config, a suite), parsed without ever quoting the file back: the file
 * may be anything (an env file with a password, /etc/passwd), so problems name the line and what is wrong, and
 * never hold the line's text.
 */
export type YamlText = { ok: true; value: unknown; line: number } | { ok: false; problems: string[] };

export function parseYamlText(text: string): YamlText {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map(
        (e) => `line ${lineCounter.linePos(e.pos[0]).line}: not valid YAML (${firstLine(e.message)})`,
      ),
    };
  }
  const start = doc.contents?.range[0] ?? 0;
  return { ok: true, value: doc.toJS() as unknown, line: lineCounter.linePos(start).line };
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
