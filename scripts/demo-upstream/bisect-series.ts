/**
 * The demo's bisection series: mariadb-10.5.1, sixteen untagged commits, then mariadb-10.5.2, on top of the other
 * releases (so their commit ids do not change). One untagged commit makes every commit durable (the 'slow' kind's
 * settings) and makes every query run BISECT_EXTRA_INSTRUCTIONS more instructions, and every later one keeps both;
 * one later commit does not compile. The QPS lane sees the slow commit by its fsyncs, the instructions lane by its
 * instructions. `qpswatch bisect mariadb-10.5.2` must
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

/**
 * What the slow commit adds to every query (template/launcher/extra-work.c): about a tenth of an update's count in
 * the instructions lane (point select 42 thousand, update-index 100 thousand on Debian's 10.11.19), far past any
 * threshold, so a bisection step on instructions is decided by one counted run.
 */
export const BISECT_EXTRA_INSTRUCTIONS = 10_000;

/** Whether a commit of the series runs the durable settings and the extra work: the slow one and all after it. */
export function bisectCommitIsDurable(index: number): boolean {
  return index >= BISECT_COMMITS.findIndex((c) => c.kind === 'slow');
}
