import { InputError } from '../errors.js';
import {
  copyStore,
  DEFAULT_BATCH_ROWS,
  SchemaTooNewError,
  SchemaTooOldError,
  StoreOpenError,
  type StoreCopyReport,
} from '../store/index.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { parseCommandArgs } from './parse-args.js';
import { storeCopyArgs } from './store-copy-args.js';
import { storeCopyText } from './store-copy-text.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch store copy [--from sqlite:PATH] [--to mysql://USER@HOST[:PORT]/DATABASE] [--batch-rows N]

Moves a host's results into a MySQL or MariaDB store (store_backend: mysql): every row of every table of the
SQLite store, ids kept, so sessions, samples, checks, events and the outbox still point at each other. An empty
database gets qpswatch's tables first. The tables and columns come from the two stores themselves, in the
order of the target's foreign keys; the SQLite file is only read, and every read-only command keeps working
on it.

Each table is checked before anything is written: a row the target holds already must equal the source's
(it is then skipped), and one it lacks must not take a unique key (a release's tag, a host's fingerprint)
of a target row of another id. So a second run writes nothing and says so, and a target holding another
store's rows for the same ids is refused, naming the table and the row. Then the missing rows go in, N rows
a multi-row INSERT in one transaction each, one log line a table on stderr, and the counts of each table
are compared and printed. Stop the daemon first: rows it writes to the source later are not copied (a later
run copies them).

  --from sqlite:PATH   the SQLite store (default: qpswatch.sqlite under state_dir); sqlite:///abs/path too
  --to URL             the MySQL or MariaDB store, as store_url takes it (mariadb:// too); the password comes
                       from QPSWATCH_STORE_PASSWORD or store_password_file, never from the URL.
                       Default: the store the config names with store_backend: mysql (store_url, or store_host,
                       store_port or store_socket, store_user, store_database). store_tls and store_tls_ca apply.
  --batch-rows N       rows per INSERT (default ${DEFAULT_BATCH_ROWS})

Exit codes: 0 copied, or nothing to copy; 1 failed on the way (the server went away: run it again, the rows
copied are kept and skipped); 2 bad input, nothing changed (an unknown scheme, no such file, a server that does
not answer or refuses the user, stores of different schema versions, a target with other rows for the same ids).
`;

const SUMMARY = 'copy an SQLite store into a MySQL or MariaDB store (store copy)';

const COPY_FLAGS = { from: { type: 'string' }, to: { type: 'string' }, 'batch-rows': { type: 'string' } } as const;

export const storeCommand: Command = {
  name: 'store',
  summary: SUMMARY,
  help: HELP,
  flags: COPY_FLAGS,
  positionals: true,
  examples: [
    {
      does: "Move this host's SQLite store into a shared MariaDB",
      line: 'qpswatch store copy --to mysql://qpswatch@db.example.org/qpswatch',
    },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const [sub, ...rest] = args;
    if (sub !== 'copy')
      throw new UsageError(
        sub === undefined ? 'store needs a subcommand: copy' : `unknown store subcommand '${sub}'`,
        HELP,
      );
    return copy(rest, ctx);
  },
};

async function copy(args: string[], ctx: CommandContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, COPY_FLAGS, HELP, true);
  if (positionals.length > 0)
    throw new UsageError(
      `store copy takes no arguments besides its flags, got ${JSON.stringify(positionals[0])}`,
      HELP,
    );
  const { from, to, batchRows } = storeCopyArgs(values, ctx.config, ctx.cwd, HELP);
  const log = ctx.log.child({ component: 'store-copy' });
  let report: StoreCopyReport;
  try {
    report = await copyStore({
      from,
      to,
      log,
      signal: ctx.signal,
      ...(batchRows !== undefined ? { batchRows } : {}),
    });
  } catch (error) {
    // A store that cannot be opened or does not fit is bad input here: nothing was changed.
    if (error instanceof StoreOpenError || error instanceof SchemaTooNewError || error instanceof SchemaTooOldError)
      throw new InputError(error.message);
    throw error;
  }
  ctx.stdout(storeCopyText(report));
  return EXIT_OK;
}
