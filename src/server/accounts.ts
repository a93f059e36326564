import type { RowDataPacket } from 'mysql2/promise';
import type { Flavor, Version } from '../version/index.js';
import { atLeast } from './at-least.js';
import type { Connection } from './connection.js';
import type { ServerCredential } from './credential.js';
import { ServerCredentialError } from './errors.js';

/** One SQL statement with its values (sent through mysql2's escaping, never pasted into the text). */
export interface AccountStatement {
  readonly sql: string;
  readonly values: readonly string[];
}

export interface AccountRow {
  readonly user: string;
  readonly host: string;
}

/**
 * What makes a freshly initialised datadir safe: every install leaves root@localhost without a password (qpswatch asks
 * for that, it is the one way in that all flavors share), and older installs add root@127.0.0.1, root@::1,
 * root@<hostname> and anonymous accounts, all without a password and reachable over TCP. Those go; root@localhost gets
 * the session's password. Statements that carry the password are never logged. Pure: unit-tested per flavor and
 * version.
 */
export function lockDownStatements(
  server: { flavor: Flavor; version: Version },
  accounts: readonly AccountRow[],
  password: string,
): AccountStatement[] {
  const extra = accounts.filter((a) => a.user === '' || (a.user === 'root' && a.host !== 'localhost'));
  return [
    // Keep the account changes out of any binary log a profile turns on.
    { sql: 'SET SESSION sql_log_bin = 0', values: [] },
    ...extra.map((a) => ({ sql: 'DROP USER ?@?', values: [a.user, a.host] })),
    setPassword(server, password),
  ];
}

/** ALTER USER exists from MySQL 5.7.6 and MariaDB 10.2; before that, SET PASSWORD with PASSWORD(). */
function setPassword(server: { flavor: Flavor; version: Version }, password: string): AccountStatement {
  const alterUser = server.flavor === 'mariadb' ? atLeast(server.version, '10.2') : atLeast(server.version, '5.7.6');
  return alterUser
    ? { sql: "ALTER USER 'root'@'localhost' IDENTIFIED BY ?", values: [password] }
    : { sql: "SET PASSWORD FOR 'root'@'localhost' = PASSWORD(?)", values: [password] };
}

/** Runs lockDownStatements on a connection made as root without a password. Errors never carry the statement. */
export async function lockDownAccounts(
  conn: Connection,
  server: { flavor: Flavor; version: Version },
  credential: ServerCredential,
): Promise<void> {
  try {
    const [rows] = await conn.query<(AccountRow & RowDataPacket)[]>(
      'SELECT User AS user, Host AS host FROM mysql.user',
    );
    for (const statement of lockDownStatements(server, rows, credential.reveal())) {
      await conn.query(statement.sql, [...statement.values]);
    }
  } catch (err) {
    // mysql2 puts the whole statement (with the password) in err.sql; only the code and the server's message go on.
    const e = err as { code?: string; sqlMessage?: string; message?: string };
    throw new ServerCredentialError(e.code, credential.scrub(e.sqlMessage ?? e.message ?? String(err)));
  }
}
