import { run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import type { ServerBinaries } from './binaries.js';
import { pickLogErrors } from './log-tail.js';
import { ServerOptionsError } from './errors.js';
import { serverAccount, userArgs } from './user.js';

export interface ServerOptionsCheck {
  /** Options the server accepts but ignores or will drop ("'innodb-page-cleaners' was removed", "deprecated"). */
  readonly warnings: string[];
}

/**
 * Asks the server binary whether it accepts a my.cnf (`mysqld --defaults-file=... --verbose --help` reads every
 * option and stops): an unknown option fails here in a second instead of after a datadir init.
 */
export async function checkServerOptions(
  binaries: ServerBinaries,
  myCnfPath: string,
  log?: Logger,
  serverUser?: string,
): Promise<ServerOptionsCheck> {
  // As root mysqld wants --user even for --help. secure_file_priv is qpswatch's (a profile cannot set it) and mysqld
  // refuses one whose folder does not exist yet: the check is about the profile's options, so it is left out here.
  const argv = [
    binaries.mysqld,
    `--defaults-file=${myCnfPath}`,
    ...userArgs(serverAccount(serverUser)),
    '--secure-file-priv=',
    '--verbose',
    '--help',
  ];
  const result = await run({ argv, allowFailure: true, timeoutMs: 60_000, log, dieWithParent: true });
  if (result.exitCode !== 0) {
    const lines = pickLogErrors(result.stderr);
    throw new ServerOptionsError(
      myCnfPath,
      lines.length > 0 ? lines : [`${binaries.mysqld} exited with code ${result.exitCode}`],
    );
  }
  const warnings = result.stderr
    .split('\n')
    .filter((l) => /\[Warning\]/i.test(l) && /removed|deprecated|ignored/i.test(l));
  return { warnings: warnings.map((l) => l.trim()) };
}
