import { chmod, chown, lchown, lstat, mkdir, open, readdir, stat } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import { ServerUserError, SocketPathTooLongError } from './errors.js';
import type { ServerAccount } from './user.js';

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
 */
export async function prepareServerDirs(paths: ServerPaths, account?: ServerAccount): Promise<void> {
  for (const dir of new Set([dirname(paths.pidFile), dirname(paths.errorLog), dirname(paths.datadir)])) {
    await privateDir(dir, account);
  }
  await privateDir(dirname(paths.socket), account, account !== undefined ? SOCKET_DIR_MODE : PRIVATE_DIR_MODE);
  for (const dir of [paths.tmpdir, paths.secureFileDir]) await serverOwnedDir(dir, account);
  if (account === undefined) return;
  if (await isDir(paths.datadir)) await chownTree(paths.datadir, account);
  for (const file of [paths.errorLog, paths.pidFile]) await serverOwnedFile(file, account);
}

/** The datadir before init: empty, and the server account's (mysqld --initialize cannot create it in a folder of root's). */
export async function prepareDatadir(paths: ServerPaths, account?: ServerAccount): Promise<void> {
  await prepareServerDirs(paths, account);
  await serverOwnedDir(paths.datadir, account);
}

/**
 * Creates dir (and missing parents) with mode 0750, or `mode`, and, when there is a server account, its group, so
 * mysqld can pass through and other users cannot. A folder that already exists keeps its owner; its mode and group
 * are set too. A shared sticky folder (/tmp) is refused, never changed.
 */
export async function privateDir(dir: string, account?: ServerAccount, mode = PRIVATE_DIR_MODE): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const made = first === undefined ? [dir] : chainFrom(first, dir);
  const shared = ((await stat(dir)).mode & 0o1000) !== 0 || dir === parse(resolve(dir)).root;
  // /tmp or /run/lock: other users' files live there, it must keep its mode.
  if (shared) throw new Error(`${dir} is a shared folder (sticky or the root): give the server a folder of its own under it`);
  for (const d of made) {
    // Not left to the umask (022 from a root shell). Without a server account the group is qpswatch's own: the
    // service's operators read results through it (docs/operating.md).
    await chmod(d, d === dir ? mode : PRIVATE_DIR_MODE);
    if (account !== undefined) await chown(d, (await stat(d)).uid, account.gid);
  }
}

async function serverOwnedDir(dir: string, account: ServerAccount | undefined): Promise<void> {
  await mkdir(dir, { recursive: true });
  await chmod(dir, account === undefined ? 0o700 : SERVER_OWNED_MODE);
  if (account !== undefined) await chown(dir, account.uid, account.gid);
}

async function serverOwnedFile(file: string, account: ServerAccount): Promise<void> {
  // 'a' never truncates: the error log's earlier starts stay, and log-tail reads from an offset.
  await (await open(file, 'a', 0o640)).close();
  const s = await lstat(file);
  if (!s.isFile()) throw new Error(`${file} is not a regular file`);
  if (s.uid !== account.uid) await chown(file, account.uid, account.gid);
}

/** Every entry under dir (not following links) owned by the account; entries it owns already are skipped. */
export async function chownTree(dir: string, account: ServerAccount): Promise<void> {
  const s = await lstat(dir);
  if (s.uid !== account.uid || s.gid !== account.gid) await lchown(dir, account.uid, account.gid);
  if (!s.isDirectory()) return;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(path, account);
    else {
      const e = await lstat(path);
      if (e.uid !== account.uid || e.gid !== account.gid) await lchown(path, account.uid, account.gid);
    }
  }
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
        `cannot reach ${what} ${full}: ${dir} is mode ${(s.mode & 0o7777).toString(8).padStart(4, '0')} (owner uid ${s.uid}, gid ${s.gid}) and the server never runs as root; ` +
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

/** first, and each folder below it down to last (first is an ancestor of last, or last itself). */
function chainFrom(first: string, last: string): string[] {
  const chain: string[] = [];
  for (let d = resolve(last); ; d = dirname(d)) {
    chain.unshift(d);
    if (d === resolve(first) || d === dirname(d)) return chain;
  }
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}
