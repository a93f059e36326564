/**
 * The releases of the demo upstream, oldest first: each becomes one commit and one annotated tag in the MariaDB
 * flavor's pattern. Every release fixes some server settings (the launcher passes them after my.cnf, so they win
 * over any server profile); the slow one fixes settings that cost write throughput for real. The 10.6 series grows a
 * little at every release: each makes its server run a fixed number of instructions more per query, about 3% of a
 * drift-demo range read at each step (a drift no single check sees, which the instructions lane's comparison with
 * the series' base does).
 */
export type DemoReleaseKind = 'normal' | 'slow' | 'broken' | 'drift';

export interface DemoRelease {
  readonly version: string;
  readonly kind: DemoReleaseKind;
  /** Server settings the launcher adds to every start, datadir init and option check. */
  readonly serverArgs: readonly string[];
  /** The commit message's subject. */
  readonly subject: string;
  /**
   * Instructions the server runs more per query (template/launcher/extra-work.c, preloaded by the launcher); absent:
   * nothing preloaded.
   */
  readonly extraInstructions?: number;
}

// Commits write the redo log at commit and let the OS flush it about once a second; the binlog is not synced.
export const RELAXED = ['--innodb-flush-log-at-trx-commit=2', '--sync-binlog=0'];
// An fsync of the redo log and one of the binlog (when it is on, as in every shipped server profile) at every
// commit: update, insert and delete tests lose most of their throughput on a disk where fsync costs what it does
// on real disks (write tests at a fraction of the relaxed rate); point and range reads do not change.
export const DURABLE = ['--innodb-flush-log-at-trx-commit=1', '--sync-binlog=1'];

/**
 * Instructions per query of the drift-demo suite's range-covered-pk_5000 as the instructions lane counts them
 * (npm run bench:instructions -- --suite drift-demo: 8,917,136 on Debian's mariadbd 10.11.19, 2026-12-06). The
 * drift series' steps are shares of it; a server of another version counts a little more or less, so a step is
 * "about" 3% of that test (and under 1% of the scan, whose queries count 30.8 million).
 */
export const DRIFT_QUERY_INSTRUCTIONS = 8_917_136;
// The k-th release of the drift series runs (1/0.97^k - 1) x DRIFT_QUERY_INSTRUCTIONS more per query than 10.6.1:
// each about 3% over the one before on range-covered-pk_5000, and 13% over the base at 10.6.5.
export const DRIFT_STEP = 0.97;
const DRIFT_RELEASES = 5;

function driftRelease(step: number): DemoRelease {
  const extraInstructions = Math.round((DRIFT_STEP ** -step - 1) * DRIFT_QUERY_INSTRUCTIONS);
  const share = (100 * extraInstructions) / DRIFT_QUERY_INSTRUCTIONS;
  const subject =
    step === 0
      ? 'first release of the 10.6 series'
      : `every query runs ${extraInstructions} more instructions (${share.toFixed(1)}% of a range read over 10.6.1)`;
  return {
    version: `10.6.${step + 1}`,
    kind: step === 0 ? 'normal' : 'drift',
    serverArgs: RELAXED,
    subject,
    extraInstructions,
  };
}

export const DEMO_RELEASES: readonly DemoRelease[] = [
  { version: '10.11.1', kind: 'normal', serverArgs: RELAXED, subject: 'first release of the series' },
  { version: '10.11.2', kind: 'normal', serverArgs: RELAXED, subject: 'bug fixes' },
  {
    version: '10.11.3',
    kind: 'slow',
    serverArgs: DURABLE,
    subject: 'make every commit durable (fsync of redo log and binlog at commit)',
  },
  { version: '10.11.4', kind: 'broken', serverArgs: DURABLE, subject: 'half-merged patch: does not compile' },
  { version: '10.11.9', kind: 'normal', serverArgs: RELAXED, subject: 'revert commit durability; fix the build' },
  { version: '10.11.10', kind: 'normal', serverArgs: RELAXED, subject: 'bug fixes (10.11.10 sorts after 10.11.9)' },
  { version: '11.4.1', kind: 'normal', serverArgs: RELAXED, subject: 'first release of the 11.4 series' },
  ...Array.from({ length: DRIFT_RELEASES }, (_, step) => driftRelease(step)),
];

/** The tag of a release: the MariaDB flavor's pattern. */
export function demoTag(release: Pick<DemoRelease, 'version'>): string {
  return `mariadb-${release.version}`;
}

/** What the broken release adds to the launcher: a missing semicolon gcc reports as `expected ';' before '}'`. */
export const BROKEN_SOURCE = '\n/* Half-merged patch. */\nstatic int demo_broken_patch(void) { return 1 }\n';

/** The file a shell would create if it ever ran one of the hostile tag names. */
export const HOSTILE_MARKER = 'QPSWATCH_PWNED';

/**
 * Tag names git accepts that a shell would run (command substitution, a command separator, backquotes, quotes
 * and &&) and one that a command line would read as an option. Made with git update-ref, never through a shell.
 */
export const HOSTILE_TAGS: readonly string[] = [
  `mariadb-10.11.7$(touch\${IFS}${HOSTILE_MARKER})`,
  `mariadb-10.11.7;touch\${IFS}${HOSTILE_MARKER}`,
  `mariadb-10.11.7\`touch\${IFS}${HOSTILE_MARKER}\``,
  `mariadb-10.11.7'"&&touch\${IFS}${HOSTILE_MARKER}`,
  `--upload-pack=touch\${IFS}${HOSTILE_MARKER}`,
];

/** Tags that are not releases of the flavor: a release candidate suffix and MySQL's tags from merged history. */
export const NON_RELEASE_TAGS: readonly string[] = ['mariadb-10.11.5-rc', 'mysql-5.5.30', 'mariadb-10.11.0'];
