import { rm, writeFile } from 'node:fs/promises';

/**
 * Writes a sysbench --config-file holding only mysql-password, readable by qpswatch's user alone (0600, created
 * afresh so an old file's mode or owner never carries over). sysbench reads it as if the option were on its command
 * line; the password itself never is.
 */
export async function writeSysbenchPassword(path: string, password: string): Promise<void> {
  if (!/^[\x21-\x7e]+$/.test(password))
    throw new RangeError('a sysbench password must be printable ASCII without blanks');
  await rm(path, { force: true });
  await writeFile(path, `mysql-password=${password}\n`, { mode: 0o600, flag: 'wx' });
}
