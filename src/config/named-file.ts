import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readTrustedText, UnreadableFileError } from '../trust/index.js';

/** A profile is a few KB of YAML: anything this large is the wrong file. */
const MAX_PROFILE_BYTES = 1024 * 1024;

/** Names of `<name>.yaml` files in a folder of profiles or suites, sorted; none when the folder is missing. */
export async function listNamedFiles(dir: string): Promise<string[]> {
  const files = await readdir(dir).catch(() => [] as string[]);
  return files
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

const NAME_RE = /^[a-z0-9][a-z0-9_-]*$/;

/** Why a named file could not be read, for the caller to wrap in its own typed error. */
export interface NamedFileProblem {
  file: string;
  problem: string;
  fix: string;
}

/**
 * Reads `<dir>/<name>.yaml`, where the name comes from a config or the command line: it must be a plain name (never
 * a path), and a missing file lists the names that exist.
 */
export async function readNamedFile(
  dir: string,
  name: string,
  kind: string,
  fail: (p: NamedFileProblem) => Error,
): Promise<{ file: string; text: string }> {
  const file = join(dir, `${name}.yaml`);
  if (!NAME_RE.test(name))
    throw fail({ file, problem: `is not a ${kind} name`, fix: 'use lower-case letters, digits, - and _' });
  try {
    // A profile's settings become root's build environment or the server's config: another user's is refused.
    const text = readTrustedText(file, {
      what: kind,
      elsewhere: `use a ${kind} of root's`,
      maxBytes: MAX_PROFILE_BYTES,
    });
    return { file, text };
  } catch (err) {
    if (!(err instanceof UnreadableFileError)) throw err;
    if (err.code !== 'ENOENT')
      throw fail({ file, problem: `cannot be read (${err.code})`, fix: 'check its permissions' });
    const known = await listNamedFiles(dir);
    throw fail({ file, problem: `no such ${kind}`, fix: `use one of: ${known.join(', ') || `(none in ${dir})`}` });
  }
}

/** A typed error of a profile file, as ProfileError's subclasses are made. */
type ProfileErrorClass = new (file: string, field: string, value: unknown, problem: string, fix: string) => Error;

/**
 * Loads the profile `<dir>/<name>.yaml` (a build or server profile): a bad name or a missing file is an error of
 * `errorClass` on its field "name", and the text goes to the room's own `parse`.
 */
export async function loadNamedProfile<P>(
  dir: string,
  name: string,
  kind: string,
  errorClass: ProfileErrorClass,
  parse: (text: string, name: string, file: string) => P,
): Promise<P> {
  const { file, text } = await readNamedFile(
    dir,
    name,
    kind,
    (p) => new errorClass(p.file, 'name', name, p.problem, p.fix),
  );
  return parse(text, name, file);
}
