import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { ServerUserError } from './errors.js';

/**
 * The system user mysqld runs as when qpswatch runs as root and server_user is empty: Debian's mariadb-server and
 * mysql-server packages create it.
 */
export const DEFAULT_SERVER_USER = 'mysql';

/** The unprivileged system account mysqld runs as (--user); its files are owned by it. */
export interface ServerAccount {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

export interface AccountLookup {
  /** qpswatch's own uid; default process.getuid(). */
  readonly uid?: number;
  readonly passwdFile?: string;
}

/**
 * The account the benchmarked server runs as. As root: server_user, or mysql when it is empty; never root. As anyone
 * else: undefined, mysqld runs as qpswatch's own user (it cannot switch users), so server_user must be empty or name
 * that same user. Throws ServerUserError (one line naming server_user and the fix) otherwise.
 */
export function serverAccount(configured: string | undefined, lookup: AccountLookup = {}): ServerAccount | undefined {
  const self = lookup.uid ?? process.getuid?.();
  const name = configured === undefined || configured === '' ? undefined : configured;
  if (self !== 0) {
    if (name === undefined || name === ownName()) return undefined;
    throw new ServerUserError(
      name,
      `takes effect only when qpswatch runs as root (it runs as uid ${self}): ` +
        `leave server_user empty, and mysqld runs as qpswatch's own user`,
    );
  }
  const wanted = name ?? DEFAULT_SERVER_USER;
  const account = findAccount(wanted, lookup.passwdFile);
  if (account === undefined) {
    const fix =
      name === undefined
        ? `create it (useradd --system --user-group --no-create-home --shell ` +
          `/usr/sbin/nologin ${wanted}, or install mariadb-server) or set ` +
          `server_user (QPSWATCH_SERVER_USER) to another unprivileged user`
        : 'create that user or set server_user to an existing unprivileged user';
    throw new ServerUserError(
      wanted,
      `is not a user on this host; qpswatch runs as root and never runs the benchmarked server as root: ${fix}`,
    );
  }
  if (account.uid === 0) {
    throw new ServerUserError(
      wanted,
      'has uid 0: the benchmarked server never runs as root; set server_user to an unprivileged user such as mysql',
    );
  }
  return account;
}

/** name, uid and primary gid from a passwd file; undefined when the user is not there. */
export function findAccount(name: string, passwdFile = '/etc/passwd'): ServerAccount | undefined {
  let text: string;
  try {
    text = readFileSync(passwdFile, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined && /^\d+$/.test(uid) && /^\d+$/.test(gid))
      return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/** --user for mysqld: only when qpswatch is root (mysqld refuses to run as root, and as anyone else cannot switch). */
export function userArgs(account: ServerAccount | undefined): string[] {
  return account !== undefined ? [`--user=${account.name}`] : [];
}

function ownName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}
