import { resolve } from 'node:path';
import { z } from 'zod';
import { parseStoreUrl, type Config } from '../config/index.js';
import { redactUrl, splitUrl } from '../log/index.js';
import { defaultSqlitePath, type MysqlStoreOptions } from '../store/index.js';
import { mysqlOptions } from './open-state-store.js';
import { integerFlag } from './parse-args.js';
import { UsageError } from './usage-error.js';

export interface StoreCopyArgs {
  /** The SQLite store file, absolute. */
  from: string;
  /** The MySQL store; its password (if any) from QPSWATCH_STORE_PASSWORD or store_password_file, never from argv. */
  to: MysqlStoreOptions;
  batchRows: number | undefined;
}

const FROM_EXPECTED = 'sqlite:PATH, the SQLite store file (e.g. sqlite:/var/lib/qpswatch/qpswatch.sqlite)';
const TO_EXPECTED = 'mysql://USER@HOST[:PORT]/DATABASE (or mariadb://), with no password in it';

/** `--from`: sqlite:PATH (sqlite:///abs/path too), the path relative to the working folder. */
const fromFlag = z
  .string()
  .regex(/^sqlite:/i, { error: 'unknown scheme' })
  .transform((text) => text.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, ''))
  .refine((path) => path !== '', { error: 'no path' });

/** The copy's source and target from its flags, the rest from the config (the password, TLS, the default stores). */
export function storeCopyArgs(
  values: { from?: string | undefined; to?: string | undefined; 'batch-rows'?: string | undefined },
  config: Config,
  cwd: string,
  help: string,
): StoreCopyArgs {
  return {
    from: values.from === undefined ? defaultSqlitePath(config.state_dir) : fromPath(values.from, cwd, help),
    to: values.to === undefined ? configTarget(config, help) : toOptions(values.to, config, help),
    batchRows: integerFlag('--batch-rows', values['batch-rows'], 1, 50_000),
  };
}

function fromPath(text: string, cwd: string, help: string): string {
  const parsed = fromFlag.safeParse(text);
  if (!parsed.success)
    throw new UsageError(
      `--from ${JSON.stringify(text)}: ${parsed.error.issues[0]?.message ?? 'not understood'}; ` +
        `expected ${FROM_EXPECTED}`,
      help,
    );
  return resolve(cwd, parsed.data);
}

function toOptions(text: string, config: Config, help: string): MysqlStoreOptions {
  const parts = splitUrl(text);
  // What is shown of the value: never a password, should one be in it.
  const shown = JSON.stringify(parts === undefined ? text : redactUrl(text));
  if (parts === undefined || !/^(mysql|mariadb):\/\/$/i.test(parts.scheme)) {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1];
    const what = scheme === undefined ? 'not a URL' : `unknown scheme ${scheme}:`;
    throw new UsageError(`--to ${shown}: ${what}; the target is a MySQL or MariaDB store: ${TO_EXPECTED}`, help);
  }
  if (parts.userinfo.includes(':'))
    throw new UsageError(
      `--to ${shown}: the URL holds a password, which would end up in shell history and ps; leave it out and set ` +
        'QPSWATCH_STORE_PASSWORD or store_password_file',
      help,
    );
  if (parseStoreUrl(text) === undefined) throw new UsageError(`--to ${shown}: expected ${TO_EXPECTED}`, help);
  return mysqlOptions({ ...config, store_url: text });
}

function configTarget(config: Config, help: string): MysqlStoreOptions {
  if (config.store_backend !== 'mysql' && config.store_url === '')
    throw new UsageError(
      `store copy needs --to ${TO_EXPECTED}, or a config with store_backend: mysql naming the store`,
      help,
    );
  return mysqlOptions(config);
}
