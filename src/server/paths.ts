import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  type Stats,
} from 'node:fs';
import { lchown, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import { userName } from '../exec/index.js';
import { ServerUserError, SocketPathTooLongError, UnsafeFolderError } from './errors.js';
import { findAccount, type ServerAccount } from './user.js';

/** Where one server instance keeps its files. qpswatch owns these; a profile cannot move them. */
export interface ServerPaths {
  readonly datadir: string;
  readonly socket: string;
  readonly pidFile: string;
  readonly errorLog: string;
  readonly tmpdir: string;
  /** secure_file_priv: the one folder LOAD DATA, LOAD_FILE and SELECT ... INTO OUTFILE may touch. */
  readonly secureFileDir: string;
}

/** TCP listening; without it the server runs with skip-networking (unix socket only). */
export interface ServerNetwork {
  readonly port: number;
  readonly bindAddress: string;
}

/** sun_path is 108 bytes including the terminating NUL. */
export const UNIX_SOCKET_PATH_MAX = 107;

/** Folders of qpswatch's own that mysqld passes through: owner rwx, the server's group r-x, nobody else anything. */
export const PRIVATE_DIR_MODE = 0o750;
/** The socket folder with a server account: root:<server group>, so mysqld can make its socket there. */
export const SOCKET_DIR_MODE = 0o770;
const SERVER_OWNED_MODE = 0o750;

/** The standard layout under one state directory. */
export function serverPaths(stateDir: string): ServerPaths {
  const paths = {
    datadir: join(stateDir, 'data'),
    socket: join(stateDir, 'mysqld.sock'),
    pidFile: join(stateDir, 'mysqld.pid'),
    errorLog: join(stateDir, 'error.log'),
    tmpdir: join(stateDir, 'tmp'),
    secureFileDir: join(stateDir, 'files'),
  };
  checkSocketPath(paths.socket);
  return paths;
}

export function checkSocketPath(socket: string): void {
  if (Buffer.byteLength(socket) > UNIX_SOCKET_PATH_MAX) throw new SocketPathTooLongError(socket, UNIX_SOCKET_PATH_MAX);
}

/**
 * Folders and files the server expects (it creates none of them itself, except the datadir at init), owned so that
 * the server account can use them and nobody else can: the datadir, tmpdir and secure_file_priv folder belong to
 * it (a datadir copied by root is given back to it, file by file); the socket folder is shared with its group; the
 * error log and pid file are created for it, so the folder holding them and the my.cnf stays qpswatch's.
 * Without an account (qpswatch is not root) mysqld runs as qpswatch's own user, and the folders are only made private.
 * Nothing is followed through a symbolic link: a planted one is refused (UnsafeFolderError).
 */
export async function prepareServerDirs(paths: ServerPaths, account?: ServerAccount): Promise<void> {
  for (const dir of new Set([dirname(paths.pidFile), dirname(paths.errorLog), dirname(paths.datadir)])) {
    await privateDir(dir, account);
  }
  await privateDir(dirname(paths.socket), account, account !== undefined ? SOCKET_DIR_MODE : PRIVATE_DIR_MODE);
  for (const dir of [paths.tmpdir, paths.secureFileDir]) await serverOwnedDir(dir, account);
  if (account === undefined) return;
  const datadir = await lstat(paths.datadir).catch(() => undefined);
  if (datadir?.isSymbolicLink() === true) throw symlinkError(paths.datadir, datadir.uid);
  if (datadir?.isDirectory() === true) await chownTree(paths.datadir, account);
  for (const file of [paths.errorLog, paths.pidFile]) await serverOwnedFile(file, account);
}

/**
 * The datadir before init: empty, and the server account's (mysqld --initialize cannot create it in a folder of
 * root's).
 */
export async function prepareDatadir(paths: ServerPaths, account?: ServerAccount): Promise<void> {
  await prepareServerDirs(paths, account);
  await serverOwnedDir(paths.datadir, account);
}

export interface PrivateDirOptions {
  /**
   * The state folder: one that exists already keeps its group and mode (the service's operators read it through
   * group qpswatch; a root CLI run must not take that away), unless its group is still this user's own. Folders
   * qpswatch makes are set as usual.
   */
  keepExisting?: boolean;
}

/**
 * Creates dir (and missing parents) with mode 0750, or `mode`, and, when there is a server account, its group, so
 * mysqld can pass through and other users cannot. Every part of the path is looked at with lstat first: a symbolic
 * link is refused (on the way, one of root's is allowed: /var/run is one), so is a folder that exists and belongs to
 * another user (made beforehand, to reach the server's socket or files), and a shared sticky folder such as /tmp.
 * Modes and groups are set through a descriptor opened O_NOFOLLOW|O_DIRECTORY, so a link swapped in after the
 * check is never followed. An existing folder of the service account (root's CLI on the service's state) or one
 * kept (keepExisting) is left as it is.
 */
export async function privateDir(
  dir: string,
  account?: ServerAccount,
  mode = PRIVATE_DIR_MODE,
  opts: PrivateDirOptions = {},
): Promise<void> {
  const full = resolve(dir);
  if (full === parse(full).root)
    throw new UnsafeFolderError(full, 'is the root folder: give the server a folder of its own under it');
  const made = await makeFolders(full);
  const fd = openFolder(full);
  try {
    const s = fstatSync(fd);
    if (!made.includes(full)) checkExisting(full, s);
    const keep =
      !made.includes(full) &&
      (s.uid !== process.getuid?.() || (opts.keepExisting === true && !justMadeByThisUser(s, account)));
    if (!keep) setFolder(fd, s, mode, account);
  } finally {
    closeSync(fd);
  }
  for (const d of made.filter((m) => m !== full)) {
    const parent = openFolder(d);
    try {
      setFolder(parent, fstatSync(parent), PRIVATE_DIR_MODE, account);
    } finally {
      closeSync(parent);
    }
  }
}

/**
 * A kept folder that still has this user's own group was made by qpswatch a moment ago (the store opens first, and
 * makes the state folder) or never shared: the server's group may be given to it. A group someone chose is kept.
 */
function justMadeByThisUser(s: Stats, account: ServerAccount | undefined): boolean {
  return account !== undefined && s.gid === process.getgid?.();
}

/** lstat of every part, top down; the missing ones are made one at a time (0750). Returns those it made. */
async function makeFolders(full: string): Promise<string[]> {
  const made: string[] = [];
  for (const part of [...ancestors(full), full]) {
    const s = await lstat(part).catch(() => undefined);
    if (s === undefined) {
      try {
        mkdirSync(part, PRIVATE_DIR_MODE);
        made.push(part);
        continue;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const now = s ?? (await lstat(part));
    if (now.isSymbolicLink() && (part === full || now.uid !== 0)) throw symlinkError(part, now.uid);
    if (!now.isSymbolicLink() && !now.isDirectory())
      throw new UnsafeFolderError(part, 'is not a folder: remove it, or choose another state_dir');
    // Any user could put a link in place of the next part of the path, after it was looked at.
    if (part !== full && (now.mode & 0o1002) === 0o002) {
      throw new UnsafeFolderError(
        part,
        `is writable by every user and not sticky (mode ${modeText(now.mode)}): ` +
          `any user could swap a folder below it for a link; make it private ` +
          `(chmod o-w ${part}) or choose another state_dir`,
      );
    }
  }
  return made;
}

/** An existing folder: not shared (sticky), not writable by everyone, and qpswatch's own (or the service's). */
function checkExisting(dir: string, s: Stats): void {
  if ((s.mode & 0o1000) !== 0)
    throw new UnsafeFolderError(dir, 'is a shared folder (sticky): give the server a folder of its own under it');
  if (!ownFolderOwners().has(s.uid)) {
    throw new UnsafeFolderError(
      dir,
      `exists and belongs to ${ownerText(s.uid)}, not to ` +
        `${ownerText(process.getuid?.() ?? -1)}: another user may have made it ` +
        `beforehand, to reach the server's files; look at what is in it, then ` +
        `remove it or choose another state_dir`,
    );
  }
  if ((s.mode & 0o002) !== 0)
    throw new UnsafeFolderError(
      dir,
      `is writable by every user (mode ${modeText(s.mode)}): make it private ` +
        `(chmod o-w ${dir}) or choose another state_dir`,
    );
}

/**
 * cache_dir holds the mirrors and worktrees root compiles and the tarballs the server runs: a folder another user owns
 * or may write would let that user change what root builds and runs. It is looked at, never changed (its mode and
 * group are the operator's); a missing one is fine, qpswatch makes it private (umask 027).
 */
export async function checkCacheDir(dir: string): Promise<void> {
  const full = resolve(dir);
  const s = await lstat(full).catch(() => undefined);
  if (s === undefined) return;
  const fix = 'or choose another cache_dir';
  if (s.isSymbolicLink() && s.uid !== 0) throw symlinkError(full, s.uid);
  const real = s.isSymbolicLink() ? await stat(full) : s;
  if (!real.isDirectory()) throw new UnsafeFolderError(full, `is not a folder: remove it, ${fix}`);
  if ((real.mode & 0o1000) !== 0)
    throw new UnsafeFolderError(full, `is a shared folder (sticky): make a folder of qpswatch's own under it, ${fix}`);
  if (!ownFolderOwners().has(real.uid))
    throw new UnsafeFolderError(
      full,
      `belongs to ${ownerText(real.uid)}, who could change what qpswatch compiles and runs as root: ` +
        `look at what is in it, then remove it ${fix}`,
    );
  if ((real.mode & 0o002) !== 0)
    throw new UnsafeFolderError(
      full,
      `is writable by every user (mode ${modeText(real.mode)}): make it private (chmod o-w ${full}) ${fix}`,
    );
}

/** This process's user, and as root also the service account qpswatch: the owners of qpswatch's folders. */
function ownFolderOwners(): Set<number> {
  const self = process.getuid?.() ?? -1;
  const owners = new Set([self]);
  const service = self === 0 ? findAccount(SERVICE_ACCOUNT) : undefined;
  if (service !== undefined) owners.add(service.uid);
  return owners;
}

/** The system user the service runs as (systemd/install.sh makes it); root's CLI may use its state. */
const SERVICE_ACCOUNT = 'qpswatch';

function openFolder(dir: string): number {
  try {
    return openSync(dir, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_DIRECTORY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ELOOP' && code !== 'ENOTDIR') throw err;
    // A link is ENOTDIR under O_DIRECTORY, ELOOP otherwise.
    const s = lstatSync(dir);
    if (s.isSymbolicLink()) throw symlinkError(dir, s.uid);
    throw new UnsafeFolderError(dir, 'is not a folder: remove it, or choose another state_dir');
  }
}

/** Not left to the umask (022 from a root shell); with a server account the group is its. */
function setFolder(fd: number, s: Stats, mode: number, account: ServerAccount | undefined): void {
  if ((s.mode & 0o7777) !== mode) fchmodSync(fd, mode);
  if (account !== undefined && s.gid !== account.gid) fchownSync(fd, s.uid, account.gid);
}

function symlinkError(path: string, uid: number): UnsafeFolderError {
  let target = 'somewhere';
  try {
    target = readlinkSync(path);
  } catch {
    // Gone meanwhile: the name is enough.
  }
  return new UnsafeFolderError(
    path,
    `is a symbolic link (to ${target}) made by ${ownerText(uid)}: qpswatch ` +
      `never follows one to its folders; remove it (sudo rm ${path}) or ` +
      `choose another state_dir`,
  );
}

function ownerText(uid: number): string {
  const name = userName(uid);
  return name === undefined ? `uid ${uid}` : `user ${name} (uid ${uid})`;
}

function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** A folder of the server account's (tmpdir, secure_file_priv, the datadir), in a folder of qpswatch's. */
async function serverOwnedDir(dir: string, account: ServerAccount | undefined): Promise<void> {
  await mkdir(dir, { mode: 0o700 }).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  });
  const fd = openFolder(dir);
  try {
    const s = fstatSync(fd);
    if (s.uid !== process.getuid?.() && s.uid !== account?.uid) {
      throw new UnsafeFolderError(
        dir,
        `exists and belongs to ${ownerText(s.uid)}, not to qpswatch or the ` +
          `server account: another user may have made it beforehand; look at what is in it, then remove it`,
      );
    }
    fchmodSync(fd, account === undefined ? 0o700 : SERVER_OWNED_MODE);
    if (account !== undefined && (s.uid !== account.uid || s.gid !== account.gid))
      fchownSync(fd, account.uid, account.gid);
  } finally {
    closeSync(fd);
  }
}

async function serverOwnedFile(file: string, account: ServerAccount): Promise<void> {
  // O_APPEND never truncates: the error log's earlier starts stay, and log-tail reads from an offset.
  let fd: number;
  try {
    fd = openSync(
      file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o640,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw symlinkError(file, lstatSync(file).uid);
    throw err;
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) throw new UnsafeFolderError(file, 'is not a regular file: remove it');
    if (s.uid !== account.uid) fchownSync(fd, account.uid, account.gid);
  } finally {
    closeSync(fd);
  }
}

/**
 * Every entry under dir (not following links) owned by the account. Children first, then the folder: while its
 * entries are changed a folder is still qpswatch's, so no process of the account can swap one for a link. A folder
 * the account owns already is not entered: what is in it is the server's own.
 */
export async function chownTree(dir: string, account: ServerAccount): Promise<void> {
  const s = await lstat(dir);
  if (s.isDirectory() && s.uid !== account.uid) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await chownTree(path, account);
      else {
        const e = await lstat(path);
        if (e.uid !== account.uid || e.gid !== account.gid) await lchown(path, account.uid, account.gid);
      }
    }
  }
  if (s.uid !== account.uid || s.gid !== account.gid) await lchown(dir, account.uid, account.gid);
}

/**
 * mysqld drops root for the server account before it opens its files: every folder above `path` must let that
 * account pass (x for it as owner, through its group, or for others). Throws a ServerUserError naming the first that
 * does not, and the fix.
 */
export async function assertReachable(path: string, account: ServerAccount, what: string): Promise<void> {
  const full = resolve(path);
  for (const dir of ancestors(full)) {
    const s = await stat(dir).catch(() => undefined);
    if (s === undefined) return;
    const bit = s.uid === account.uid ? 0o100 : s.gid === account.gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) {
      throw new ServerUserError(
        account.name,
        `cannot reach ${what} ${full}: ${dir} is mode ` +
          `${(s.mode & 0o7777).toString(8).padStart(4, '0')} (owner uid ${s.uid}, ` +
          `gid ${s.gid}) and the server never runs as root; ` +
          `move ${what} under a folder it can pass through (e.g. /var/lib/qpswatch), or let it pass: chmod o+x ${dir}`,
      );
    }
  }
}

/** '/', '/a', '/a/b' for '/a/b/c': the folders a lookup of path passes through. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  let dir = dirname(path);
  while (true) {
    out.unshift(dir);
    if (dir === parse(dir).root) return out;
    dir = dirname(dir);
  }
}
