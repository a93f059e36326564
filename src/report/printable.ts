const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Names are data: a newline or control character in one must not break the layout, so it is shown escaped. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (char) => NAMED_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
