const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Names and tool output are data: a newline or control character in one must not break the layout, and an escape
 * sequence (ESC ] 0 ; title BEL, ESC [ 2 J) from a compiler line must not reach a terminal. Every C0 and C1 control
 * character and DEL is shown escaped (`\x1b`), and so is every bidirectional control (`\u202e`, see BIDI_CONTROLS);
 * the result has none, so applying it twice changes nothing.
 */
export function printable(text: string): string {
  return shownBidi(
    text.replace(
      /[\u0000-\u001f\u007f-\u009f]/g,
      (char) => NAMED_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
    ),
  );
}

/**
 * The characters that reorder or redirect the text around them (right-to-left overrides and isolates, the marks, the
 * line and paragraph separators): a tag or a server line holding U+202E would show its following characters
 * reversed, so what a person reads is not what is there ("Trojan Source").
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Bidirectional controls shown as their code point (`\u202e`), visible and inert, wherever text is displayed. */
export function shownBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
