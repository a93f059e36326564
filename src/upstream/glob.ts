/** A tag-name glob: "*" is any run of characters (also none), "?" exactly one; everything else is itself. */
export function globToRegExp(glob: string): RegExp {
  const body = [...glob]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's');
}

export function matchesAny(globs: readonly RegExp[], text: string): boolean {
  return globs.some((g) => g.test(text));
}
