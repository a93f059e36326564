/**
 * Debian's control format (deb822), as apt's .sources files, a .dsc and `apt-cache showsrc` write it: stanzas
 * apart by blank lines, "Field: value" lines, a value going on over lines that start with a blank. A PGP-signed
 * file (.dsc) is read between its armor lines. Field names keep their case; look them up with `field`.
 */
export type Stanza = ReadonlyMap<string, string>;

export function parseDeb822(text: string): Stanza[] {
  const stanzas: Array<Map<string, string>> = [];
  let current = new Map<string, string>();
  let last: string | undefined;
  for (const raw of unsign(text).split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') {
      if (current.size > 0) stanzas.push(current);
      current = new Map();
      last = undefined;
      continue;
    }
    if (line.startsWith('#')) continue;
    if (/^[ \t]/.test(line)) {
      if (last !== undefined) current.set(last, `${current.get(last)!}\n${line.trim()}`);
      continue;
    }
    const m = /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
    if (m === null) continue;
    last = m[1]!;
    current.set(last, m[2]!.trim());
  }
  if (current.size > 0) stanzas.push(current);
  return stanzas;
}

/** A field by name, any case (apt writes "Signed-By", people "signed-by"). */
export function field(stanza: Stanza, name: string): string | undefined {
  for (const [key, value] of stanza) if (key.toLowerCase() === name.toLowerCase()) return value;
  return undefined;
}

/** The "<sha256> <size> <name>" lines of a Checksums-Sha256 field. */
export function sha256Files(stanza: Stanza): Array<{ sha256: string; size: number; name: string }> {
  const lines = (field(stanza, 'Checksums-Sha256') ?? '').split('\n');
  const files: Array<{ sha256: string; size: number; name: string }> = [];
  for (const line of lines) {
    const m = /^([0-9a-f]{64})\s+(\d+)\s+(\S+)$/.exec(line.trim());
    if (m !== null) files.push({ sha256: m[1]!, size: Number(m[2]), name: m[3]! });
  }
  return files;
}

/** The signed part of a clearsigned file, or the text itself. */
function unsign(text: string): string {
  const begin = text.indexOf('-----BEGIN PGP SIGNED MESSAGE-----');
  if (begin < 0) return text;
  const body = text.slice(text.indexOf('\n\n', begin) + 2);
  const end = body.indexOf('-----BEGIN PGP SIGNATURE-----');
  return end < 0 ? body : body.slice(0, end);
}
