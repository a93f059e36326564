/**
 * A regular expression written in parts, so that a long expected message fits the line width: the parts' sources
 * joined in order, with the last part's flags. Each part is a whole regular expression of its own.
 */
export function joined(...parts: readonly RegExp[]): RegExp {
  return new RegExp(parts.map((p) => p.source).join(''), parts.at(-1)?.flags);
}
