/**
 * A function's name without its parameter list, so one function is one row across releases: callgrind names a C++
 * function by its whole demangled signature, and a release that adds a parameter (dispatch_command gained one
 * between 10.5 and 10.11) would otherwise show the function as new on one side and gone on the other, its whole cost
 * as growth. `Foo::bar(int, char*) const` is `Foo::bar`; `Foo::operator()(int)` is `Foo::operator()`; a C name has no
 * list and is itself. Overloads of one name share the key: their costs add up on each side.
 */
export function functionKey(name: string): string {
  const trimmed = name.trim();
  const close = trimmed.lastIndexOf(')');
  if (close === -1 || !/^\)\s*(const|volatile|&|&&|\s)*$/.test(trimmed.slice(close))) return trimmed;
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const c = trimmed[i];
    if (c === ')') depth++;
    else if (c === '(') depth--;
    if (depth === 0) return i === 0 ? trimmed : trimmed.slice(0, i).trimEnd();
  }
  return trimmed;
}
