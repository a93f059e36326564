/**
 * The demo's bisection series: mariadb-10.5.1, sixteen untagged commits, then mariadb-10.5.2, on top of the other
 * releases (so their commit ids do not change). One untagged commit makes every commit durable (the 'slow' kind's
 * settings) and every later one keeps it; one later commit does not compile. `qpswatch bisect mariadb-10.5.2` must
 * name the slow commit, skipping the broken one, in at most ceil(log2(n)) + 2 builds (n = 17 commits after 10.5.1).
 * Commit subjects and one author name hold quotes, ampersands and angle brackets: they are data, never a shell's.
 */
export interface DemoBisectCommit {
  readonly subject: string;
  /** Absent: the demo's author. */
  readonly author?: string;
  /** 'slow': the first durable commit; 'broken': does not compile; the tag's own commit is 'tag'. */
  readonly kind: 'plain' | 'slow' | 'broken';
}

export const BISECT_GOOD_VERSION = '10.5.1';
export const BISECT_BAD_VERSION = '10.5.2';

/** The untagged commits between the two tags, oldest first; the fifth is the slow one, the eighth the broken one. */
export const BISECT_COMMITS: readonly DemoBisectCommit[] = [
  { subject: 'docs: spelling in the README', kind: 'plain' },
  { subject: 'cmake: quieter configure output', kind: 'plain' },
  { subject: 'tests: a test for "SHOW STATUS" & friends', kind: 'plain' },
  { subject: 'refactor: rename a local variable', kind: 'plain' },
  {
    subject: `innodb: fsync redo log & binlog at every commit ("durable" <by default>)`,
    // git keeps quotes and & inside a name (it drops <, > and such characters at either end).
    author: `Dana O'Brien & the "durable" team`,
    kind: 'slow',
  },
  { subject: 'docs: explain the new default', kind: 'plain' },
  { subject: 'ci: run the tests twice', kind: 'plain' },
  { subject: 'launcher: half-merged cleanup (does not compile)', kind: 'broken' },
  { subject: 'launcher: finish the cleanup; the build works again', kind: 'plain' },
  { subject: 'engine: comment typo', kind: 'plain' },
  { subject: "tests: `$(true)` and 'quotes' in a test name", kind: 'plain' },
  { subject: 'cmake: sort the source list', kind: 'plain' },
  { subject: 'docs: changelog for 10.5.2', kind: 'plain' },
  { subject: 'refactor: split a long function', kind: 'plain' },
  { subject: 'tests: more checks of the launcher', kind: 'plain' },
  { subject: 'release: bump the version to 10.5.2', kind: 'plain' },
];

/** Whether a commit of the series runs the durable settings: the slow one and everything after it. */
export function bisectCommitIsDurable(index: number): boolean {
  return index >= BISECT_COMMITS.findIndex((c) => c.kind === 'slow');
}
