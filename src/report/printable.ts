const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Names and tool output are data: a newline or control character in one must not break the layout, and an escape
 * sequence (ESC ] 0 ; title BEL, ESC [ 2 J) from a compiler line must not reach a terminal. Every C0 and C1 control
 * character and DEL is shown escaped (`\x1b`); the result has none, so applying it twice changes nothing.
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f]/g,
    (char) => NAMED_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
