/**
 * What a person sees on a terminal while a command works: one short line per event (a server up, a look, a verdict)
 * and, under them, one status line redrawn in place (`sweep 9/21 · 5/8 decided · about 4 min left`). It is the log's
 * destination on a terminal: each JSON line pino writes is shown as its message alone. The details stay in the
 * fields, for the JSON log and --log-level debug. The room lines (server, exec) are details: shown at debug only.
 */
export interface TerminalOptions {
  /** Writes to the terminal (stderr). */
  write: (text: string) => void;
  /** Its width now (it may change while the command runs). */
  columns: () => number;
  color: boolean;
  /** The level the logger was made with: at debug, the room lines and each line's fields are shown too. */
  level: string;
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warning',
  50: 'error',
  60: 'fatal',
};
const COLORS: Record<string, string> = { warning: '33', error: '31', fatal: '31', debug: '2', trace: '2' };
/** Rooms whose lines say how, not what: the argv of a server start, a child's exit. */
const DETAIL_COMPONENTS = new Set(['server', 'exec']);
/** Fields every line carries: never worth showing. */
const QUIET_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'component', 'statusLine']);

export class TerminalOutput {
  readonly #options: TerminalOptions;
  #status = '';
  readonly #verbose: boolean;

  constructor(options: TerminalOptions) {
    this.#options = options;
    this.#verbose = options.level === 'debug' || options.level === 'trace';
  }

  /** pino's destination: one JSON line. */
  write(line: string): void {
    const shown = this.#lineOf(line);
    if (shown !== undefined) this.event(shown);
  }

  /** A line above the status line, which is drawn again under it. */
  event(text: string): void {
    this.#options.write(`${this.#clear()}${text}\n${this.#fitted()}`);
  }

  /** The status line, redrawn in place; '' removes it. */
  setStatus(text: string): void {
    // The old line is cleared before the new one is known: '' after a status must still erase it.
    const clear = this.#clear();
    this.#status = printableLine(text);
    this.#options.write(`${clear}${this.#fitted()}`);
  }

  /** Removes the status line for good (the command's end: its report follows on stdout). */
  clearStatus(): void {
    if (this.#status === '') return;
    const clear = this.#clear();
    this.#status = '';
    this.#options.write(clear);
  }

  #clear(): string {
    return this.#status === '' ? '' : '\r\u001b[2K';
  }

  #fitted(): string {
    if (this.#status === '') return '';
    const width = Math.max(20, this.#options.columns() - 1);
    return this.#status.length > width ? `${this.#status.slice(0, width - 1)}…` : this.#status;
  }

  #lineOf(json: string): string | undefined {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(json) as Record<string, unknown>;
    } catch {
      return printableLine(json.trimEnd());
    }
    const level = LEVEL_NAMES[Number(entry['level'])] ?? 'info';
    const component = typeof entry['component'] === 'string' ? entry['component'] : undefined;
    if (level === 'info' && component !== undefined && DETAIL_COMPONENTS.has(component) && !this.#verbose)
      return undefined;
    // Progress the status line already shows (a session's sweep): a line of its own only at debug.
    if (level === 'info' && entry['statusLine'] === true && !this.#verbose) return undefined;
    const err = entry['err'] as { message?: unknown } | undefined;
    const reason = typeof err?.message === 'string' && level !== 'info' ? `: ${err.message}` : '';
    const text = printableLine(`${String(entry['msg'] ?? '')}${reason}`);
    const fields = this.#verbose ? fieldsText(entry) : '';
    const label = level === 'info' ? '' : `${level}: `;
    const color = COLORS[level];
    const painted = (t: string): string =>
      this.#options.color && color !== undefined ? `\u001b[${color}m${t}\u001b[0m` : t;
    return level === 'info' ? `${text}${fields}` : `${painted(label)}${text}${painted(fields)}`;
  }
}

function fieldsText(entry: Record<string, unknown>): string {
  const parts = Object.entries(entry)
    .filter(([key]) => !QUIET_FIELDS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return parts.length === 0 ? '' : printableLine(`  ${parts.join(' ')}`);
}

/**
 * One line as it may reach a terminal: control characters (an escape sequence in server output, a newline in a tag)
 * and the marks that reorder text are shown as \xNN and \u{NNNN}, never acted on.
 */
export function printableLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}
