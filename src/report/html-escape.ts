import { printable, shownBidi } from './printable.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML character data or a quoted attribute value: tags, names and server output are data, never markup. A
 * bidirectional control is spelled out (`\u202e`): as an entity it would still reverse what follows it.
 */
export function escapeHtml(text: string): string {
  return shownBidi(text).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/**
 * Data shown in a page: control characters spelled out as in the text layout (HTML forbids most of them), then escaped.
 */
export function htmlText(text: string): string {
  return escapeHtml(printable(text));
}
