import { splitUrl } from '../log/index.js';

/** What store_url names: the server, the user and the database of a MySQL or MariaDB store. Never a password. */
export interface StoreUrl {
  user: string;
  host: string;
  port: number;
  database: string;
}

export const STORE_URL_EXPECTED =
  'a URL mysql://user@host:port/database with no password in it (the password comes from ' +
  'QPSWATCH_STORE_PASSWORD or store_password_file), or empty';

const NAME = /^[A-Za-z0-9_$.-]{1,64}$/;

/**
 * store_url's parts, or undefined when it is not mysql://user@host[:port]/database (mariadb:// too) or when it
 * holds a password: a password in a URL ends up in shell history, `ps` and config files anyone may read.
 */
export function parseStoreUrl(text: string): StoreUrl | undefined {
  const parts = splitUrl(text);
  if (parts === undefined || !/^(mysql|mariadb):\/\/$/i.test(parts.scheme)) return undefined;
  if (parts.userinfo.includes(':')) return undefined;
  let url: URL;
  try {
    url = new URL(`mysql://${parts.userinfo}${parts.userinfo === '' ? '' : '@'}${parts.rest}`);
  } catch {
    return undefined;
  }
  if (url.search !== '' || url.hash !== '' || url.hostname === '') return undefined;
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const port = url.port === '' ? 3306 : Number(url.port);
  if (user === '' || !NAME.test(database) || !(port >= 1 && port <= 65535)) return undefined;
  return { user, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, database };
}
