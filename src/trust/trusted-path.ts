import { chmodSync, lstatSync, mkdirSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { dirname, parse, resolve } from 'node:path';
import { FolderNotMadeError, UnreadableFileError, UntrustedPathError } from './errors.js';
import { modeText, ownerText, trustedOwners } from './owners.js';

/** How messages name what is checked, and the way out when the fix is to use something else. */
export interface TrustSubject {
  /** "state_dir", "cache_dir", "config file", "suite", "Lua script", "build profile", "smtp_password_file" */
  what: string;
  /** "choose another state_dir", "name another config file" */
  elsewhere: string;
}

export interface FolderOptions {
  /**
   * A shared sticky folder (/run/lock) is fine as the folder itself: what qpswatch opens in it is checked file by
   * file (the host lock refuses a file of another user's).
   */
  stickyOk?: boolean;
  /** The mode of a folder ensureTrustedFolder makes (0750 by default; the umask still applies). */
  mode?: number;
}

export interface FileSubject extends TrustSubject {
  /** A password or token: other users may not read it either. */
  secret?: boolean;
}

/**
 * The one check of what qpswatch uses as its own before it uses it: the folder (or file) and every folder above it
 * belong to root, this user or the service account qpswatch; no folder above is writable by other users unless it
 * is sticky (/tmp), and the folder or file itself is not writable by them at all; a secret is not readable by them
 * either. What another user could change would become code root runs (a build profile's env, a suite's Lua script,
 * a planted mariadbd) or a secret that user reads.
 *
 * The path is walked as written, with lstat: a symbolic link that is the folder itself is refused, and so is one on
 * the way that a user other than those made (a root-owned one such as /var/run is fine). Then the real path is walked,
 * so a trusted link cannot lead into a folder another user owns. A folder that does not exist yet has its existing
 * parents checked; ensureTrustedFolder makes it.
 */
export function checkTrustedFolder(path: string, subject: TrustSubject, options: FolderOptions = {}): void {
  checkPath(resolve(path), 'folder', subject, options);
}

/** The same check for a file qpswatch reads as code or as a secret; a missing file is an UnreadableFileError. */
export function checkTrustedFile(path: string, subject: FileSubject): void {
  checkPath(resolve(path), 'file', subject);
}

/**
 * checkTrustedFolder, then the missing parts made one at a time (0750, never through a link: mkdir does not follow
 * its last part); a part another user made meanwhile is refused by the check that follows.
 */
export function ensureTrustedFolder(path: string, subject: TrustSubject, options: FolderOptions = {}): void {
  const full = resolve(path);
  checkPath(full, 'folder', subject, options);
  for (const part of [...ancestors(full), full]) {
    if (lstatIf(part, subject, full) !== undefined) continue;
    try {
      mkdirSync(part, options.mode ?? 0o750);
      // The mode asked for, whatever the umask (027 in qpswatch): a lock folder others must pass through is 0755.
      if (options.mode !== undefined) chmodSync(part, options.mode);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      if (code !== 'EEXIST') throw new FolderNotMadeError(subject.what, full, code, subject.elsewhere);
    }
  }
  checkPath(full, 'folder', subject, options);
}

type Kind = 'folder' | 'file';

function checkPath(full: string, kind: Kind, subject: FileSubject, options: FolderOptions = {}): void {
  const trusted = trustedOwners();
  const deepest = checkWrittenWay(full, full, kind, subject, trusted, 0);
  if (kind === 'file' && deepest !== full) throw new UnreadableFileError(subject.what, full, 'ENOENT');
  const real = realPath(deepest, subject, full);
  const realParts = [...ancestors(real), real];
  for (const part of realParts) {
    const s = lstatIf(part, subject, full);
    if (s === undefined) throw new UnreadableFileError(subject.what, full, 'ENOENT');
    const itself = part === real && deepest === full;
    const shared = itself && options.stickyOk === true && s.isDirectory() && (s.mode & 0o1000) !== 0;
    const problem =
      itself && !shared ? problemOfItself(s, part, kind, subject, trusted) : problemOnTheWay(s, part, subject, trusted);
    if (problem !== undefined) throw refuse(subject, full, part, problem);
  }
}

/** Links followed on the way before the path counts as a loop (the kernel's own limit). */
const MAX_LINKS = 40;

/**
 * The path as written, with lstat, and every link on it as written too: a folder that holds a link (or a part of the
 * path) must be as safe as a folder on the real path, since its owner could re-point the link at any time; a link
 * another user made is refused, and so is a link that is the folder itself. Returns the deepest part that exists.
 */
function checkWrittenWay(
  path: string,
  full: string,
  kind: Kind,
  subject: FileSubject,
  trusted: ReadonlySet<number>,
  links: number,
): string {
  let deepest = parse(path).root;
  for (const part of [...ancestors(path), path]) {
    const s = lstatIf(part, subject, full);
    if (s === undefined) break;
    deepest = part;
    if (s.isSymbolicLink()) {
      if ((part === full && kind === 'folder') || !trusted.has(s.uid))
        throw refuse(
          subject,
          full,
          part,
          `is a symbolic link (to ${linkTarget(part) ?? 'somewhere'}) made by ${ownerText(s.uid)}: ` +
            `qpswatch never follows one there; remove it (sudo rm ${part}) or ${subject.elsewhere}`,
        );
      if (links >= MAX_LINKS) throw new UnreadableFileError(subject.what, full, 'ELOOP');
      // Where it leads, as written: the folders there may hold links of their own.
      const written = linkTarget(part);
      if (written !== undefined) {
        const target = resolve(dirname(part), written);
        checkWrittenWay(dirname(target), full, 'folder', subject, trusted, links + 1);
        const last = lstatIf(target, subject, full);
        if (last?.isSymbolicLink() === true) checkWrittenWay(target, full, 'file', subject, trusted, links + 1);
      }
    } else if (part !== path) {
      const problem = problemOnTheWay(s, part, subject, trusted);
      if (problem !== undefined) throw refuse(subject, full, part, problem);
    }
  }
  return deepest;
}

/** realpath, or an UnreadableFileError naming the path (a dangling link, a loop, a folder this user cannot search). */
function realPath(path: string, subject: TrustSubject, full: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    throw new UnreadableFileError(subject.what, full, (err as NodeJS.ErrnoException).code ?? 'error');
  }
}

/** A folder above: a trusted owner's, not open to other users' writes unless sticky (they cannot swap its parts). */
function problemOnTheWay(
  s: Stats,
  part: string,
  subject: TrustSubject,
  trusted: ReadonlySet<number>,
): string | undefined {
  if (!s.isDirectory()) return `is not a folder (${kindOf(s)}): ${subject.elsewhere}`;
  if (!trusted.has(s.uid)) return `${notTrusted(s.uid)}: that user could swap what is below it; ${subject.elsewhere}`;
  if ((s.mode & 0o022) !== 0 && (s.mode & 0o1000) === 0)
    return (
      `is writable by other users and not sticky (mode ${modeText(s.mode)}): any of them could swap what is ` +
      `below it for a link; chmod go-w ${part}, or ${subject.elsewhere}`
    );
  return undefined;
}

function problemOfItself(
  s: Stats,
  part: string,
  kind: Kind,
  subject: FileSubject,
  trusted: ReadonlySet<number>,
): string | undefined {
  const folder = kind === 'folder';
  if (folder && !s.isDirectory()) return `is not a folder (${kindOf(s)}): remove it, or ${subject.elsewhere}`;
  if (!folder && !s.isFile()) return `is not a regular file (${kindOf(s)}): name a regular file`;
  if (!trusted.has(s.uid))
    return folder
      ? `${notTrusted(s.uid)}: another user may have made it beforehand; look at what is in it, and ` +
          `${subject.elsewhere}`
      : `${notTrusted(s.uid)}: that user could change what qpswatch runs or reads as root; check it and chown ` +
          `root ${part}, or ${subject.elsewhere}`;
  const writable = `is writable by other users (mode ${modeText(s.mode)})`;
  if ((s.mode & 0o022) !== 0)
    return folder
      ? `${writable}: any of them could put files of their own in it; chmod go-w ${part}, or ${subject.elsewhere}`
      : `${writable}: any of them could change what qpswatch runs or reads as root; chmod go-w ${part}`;
  if (subject.secret === true && (s.mode & 0o004) !== 0)
    return (
      `is readable by every user (mode ${modeText(s.mode)}): the secret is theirs too; chmod o-r ${part}, and ` +
      'change the secret'
    );
  return undefined;
}

function notTrusted(uid: number): string {
  return `belongs to ${ownerText(uid)}, not to root or qpswatch's user`;
}

function refuse(subject: TrustSubject, path: string, part: string, problem: string): UntrustedPathError {
  return new UntrustedPathError(subject.what, path, part, problem);
}

/** lstat, or undefined when the part does not exist; a part this user may not look at is an UnreadableFileError. */
function lstatIf(part: string, subject: TrustSubject, full: string): Stats | undefined {
  try {
    return lstatSync(part);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    // Nothing there, or a file where a folder would be (the walk above it says so).
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UnreadableFileError(subject.what, full, code);
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** "a FIFO", "a folder": what a path is, for messages. */
export function kindOf(s: Stats): string {
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'a regular file';
}

/** '/', '/a', '/a/b' for '/a/b/c': the folders a lookup of path passes through. */
export function ancestors(path: string): string[] {
  const out: string[] = [];
  let dir = dirname(path);
  while (true) {
    out.unshift(dir);
    if (dir === parse(dir).root) return out;
    dir = dirname(dir);
  }
}
