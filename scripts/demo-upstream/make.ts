import { appendFile, cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError } from '../../src/errors.js';
import { defaultEnv, run } from '../../src/exec/index.js';
import { projectRoot } from '../../src/paths.js';
import {
  BISECT_BAD_VERSION,
  BISECT_COMMITS,
  BISECT_EXTRA_INSTRUCTIONS,
  BISECT_GOOD_VERSION,
  bisectCommitIsDurable,
  type DemoBisectCommit,
} from './bisect-series.js';
import {
  BROKEN_SOURCE,
  DEMO_RELEASES,
  DURABLE,
  RELAXED,
  demoTag,
  HOSTILE_MARKER,
  HOSTILE_TAGS,
  NON_RELEASE_TAGS,
  type DemoRelease,
} from './releases.js';

export interface DemoTaggedRelease extends DemoRelease {
  readonly tag: string;
  readonly commit: string;
}

export interface DemoRef {
  readonly name: string;
  readonly commit: string;
}

export interface DemoUpstream {
  readonly dir: string;
  /** Oldest first; every one an annotated tag. */
  readonly releases: readonly DemoTaggedRelease[];
  /** The tag whose server is slower on writes. */
  readonly slowTag: string;
  /** The 10.6 series, oldest first: its base, then releases each 3% slower than the one before. */
  readonly driftTags: readonly string[];
  /** The tag that fails to compile. */
  readonly brokenTag: string;
  /** Lightweight tags whose names a shell would run; they point at an ordinary release's commit. */
  readonly hostileTags: readonly DemoRef[];
  /** The file any of them would create if it ever reached a shell (in that shell's working directory). */
  readonly hostileMarker: string;
  /** Lightweight tags that are not releases of the flavor. */
  readonly otherTags: readonly DemoRef[];
  /** The bisection series (bisect-series.ts), made after every release above. */
  readonly bisect: DemoBisect;
}

export interface DemoBisectStep extends DemoBisectCommit {
  readonly commit: string;
  /** The author name git records. */
  readonly authorName: string;
}

export interface DemoBisect {
  /** mariadb-10.5.1: the last good release. */
  readonly goodTag: string;
  /** mariadb-10.5.2: slow; its commit comes after every untagged one. */
  readonly badTag: string;
  readonly goodCommit: string;
  readonly badCommit: string;
  /** The untagged commits between the two tags, oldest first. */
  readonly steps: readonly DemoBisectStep[];
  /** The first slow commit, the one bisect must name. */
  readonly slow: DemoBisectStep;
  /** The commit that does not compile. */
  readonly broken: DemoBisectStep;
}

export class DemoUpstreamDirError extends InputError {
  constructor(readonly dir: string) {
    super(`demo upstream folder ${dir} exists and is not empty: name a new folder or remove it first`);
    this.name = new.target.name;
  }
}

/** The demo's C and CMake sources, read from the source tree. */
export function demoTemplateDir(): string {
  return join(projectRoot, 'scripts', 'demo-upstream', 'template');
}

/**
 * Creates the demo upstream: a git repository in `dir` with one commit and annotated tag per DEMO_RELEASES
 * entry, then the hostile and non-release tags. Commit dates and authors are fixed, so the commit ids are the
 * same every time. Tag names only ever travel as argv elements of git.
 */
export async function makeDemoUpstream(dir: string): Promise<DemoUpstream> {
  const repo = resolve(dir);
  const existing = await readdir(repo).catch(() => [] as string[]);
  if (existing.length > 0) throw new DemoUpstreamDirError(repo);
  await mkdir(repo, { recursive: true });
  await git(repo, ['init', '--quiet', '--initial-branch=main', repo]);

  const releases: DemoTaggedRelease[] = [];
  for (const [i, release] of DEMO_RELEASES.entries()) {
    releases.push(await commitRelease(repo, release, i));
  }
  const plain = releases.find((r) => r.version === '10.11.2') ?? releases[0]!;
  const hostileTags = await lightweightTags(repo, HOSTILE_TAGS, plain.commit);
  const otherTags = await lightweightTags(repo, NON_RELEASE_TAGS, plain.commit);
  const bisect = await commitBisectSeries(repo, releases.length);
  return {
    dir: repo,
    releases,
    slowTag: releases.find((r) => r.kind === 'slow')!.tag,
    brokenTag: releases.find((r) => r.kind === 'broken')!.tag,
    driftTags: releases.filter((r) => r.extraInstructions !== undefined).map((r) => r.tag),
    hostileTags,
    hostileMarker: HOSTILE_MARKER,
    otherTags,
    bisect,
  };
}

/**
 * 10.5.1 (relaxed), the untagged commits of bisect-series.ts (durable from the slow one on; the broken one does not
 * compile), then 10.5.2 (durable). Each is one commit a day after the last release's month.
 */
async function commitBisectSeries(repo: string, firstIndex: number): Promise<DemoBisect> {
  const good = await commitRelease(
    repo,
    { version: BISECT_GOOD_VERSION, kind: 'normal', serverArgs: RELAXED, subject: 'first release of the 10.5 series' },
    firstIndex,
  );
  const steps: DemoBisectStep[] = [];
  for (const [i, step] of BISECT_COMMITS.entries()) {
    await cp(demoTemplateDir(), repo, { recursive: true, force: true });
    const slow = bisectCommitIsDurable(i);
    const release: DemoRelease = {
      version: BISECT_GOOD_VERSION,
      kind: 'normal',
      serverArgs: slow ? DURABLE : RELAXED,
      subject: step.subject,
      ...(slow ? { extraInstructions: BISECT_EXTRA_INSTRUCTIONS } : {}),
    };
    await writeFile(join(repo, 'release.cmake'), releaseCmake(release));
    if (step.kind === 'broken') await appendFile(join(repo, 'launcher', 'mariadbd.c'), BROKEN_SOURCE);
    const when = stepDate(firstIndex, i);
    const author = step.author ?? DEMO_AUTHOR;
    await git(repo, ['add', '--all'], when);
    await git(repo, ['commit', '--quiet', '--message', step.subject], when, author);
    steps.push({ ...step, commit: (await git(repo, ['rev-parse', 'HEAD'], when)).trim(), authorName: author });
  }
  const bad = await commitRelease(
    repo,
    {
      version: BISECT_BAD_VERSION,
      kind: 'slow',
      serverArgs: DURABLE,
      subject: 'release 10.5.2',
      extraInstructions: BISECT_EXTRA_INSTRUCTIONS,
    },
    firstIndex + 1,
  );
  return {
    goodTag: good.tag,
    badTag: bad.tag,
    goodCommit: good.commit,
    badCommit: bad.commit,
    steps,
    slow: steps.find((s) => s.kind === 'slow')!,
    broken: steps.find((s) => s.kind === 'broken')!,
  };
}

/** The i-th untagged commit of the bisection series: a day apart, after the good tag's date. */
function stepDate(goodIndex: number, i: number): string {
  return new Date(Date.UTC(2024, goodIndex, 16 + i, 12, 0, 0)).toISOString();
}

async function commitRelease(repo: string, release: DemoRelease, index: number): Promise<DemoTaggedRelease> {
  // Each commit starts from the template, so the broken release's patch is gone again in the next one.
  await cp(demoTemplateDir(), repo, { recursive: true, force: true });
  await writeFile(join(repo, 'release.cmake'), releaseCmake(release));
  if (release.kind === 'broken') await appendFile(join(repo, 'launcher', 'mariadbd.c'), BROKEN_SOURCE);
  const tag = demoTag(release);
  const when = commitDate(index);
  await git(repo, ['add', '--all'], when);
  await git(repo, ['commit', '--quiet', '--message', `MariaDB ${release.version}: ${release.subject}`], when);
  await git(repo, ['tag', '--annotate', '--message', `MariaDB ${release.version}`, tag], when);
  const commit = (await git(repo, ['rev-parse', 'HEAD'], when)).trim();
  return { ...release, tag, commit };
}

function releaseCmake(release: DemoRelease): string {
  return [
    `# MariaDB demo ${release.version} (${release.kind}): ${release.subject}`,
    `set(DEMO_VERSION "${release.version}")`,
    '# Server settings this release always runs with (they come after my.cnf, so they win).',
    `set(DEMO_EXTRA_ARGS "${release.serverArgs.join(';')}")`,
    '# Extra instructions the server runs per query (launcher/extra-work.c); -1: none preloaded.',
    `set(DEMO_EXTRA_INSTRUCTIONS ${release.extraInstructions ?? -1})`,
    '',
  ].join('\n');
}

async function lightweightTags(repo: string, names: readonly string[], commit: string): Promise<DemoRef[]> {
  for (const name of names) await git(repo, ['update-ref', `refs/tags/${name}`, commit]);
  return names.map((name) => ({ name, commit }));
}

/** One release a month from January 2024, at noon UTC. */
function commitDate(index: number): string {
  return new Date(Date.UTC(2024, index, 15, 12, 0, 0)).toISOString();
}

/** git with none of the host's config (no signing, hooks or templates) and a fixed author. */
const DEMO_AUTHOR = 'qpswatch demo';

async function git(repo: string, args: readonly string[], when = commitDate(0), author = DEMO_AUTHOR): Promise<string> {
  const env = {
    ...defaultEnv(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: author,
    GIT_AUTHOR_EMAIL: 'demo@qpswatch.invalid',
    GIT_COMMITTER_NAME: 'qpswatch demo',
    GIT_COMMITTER_EMAIL: 'demo@qpswatch.invalid',
    GIT_AUTHOR_DATE: when,
    GIT_COMMITTER_DATE: when,
  };
  const result = await run({ argv: ['git', '-C', repo, ...args], env, timeoutMs: 60_000 });
  return result.stdout;
}

/** What was made, for people: one line per tag. */
export function describeDemoUpstream(demo: DemoUpstream): string {
  const lines = [`demo upstream (flavor mariadb) in ${demo.dir}`, '', 'release tags (annotated):'];
  for (const r of demo.releases) {
    const what =
      r.kind === 'slow'
        ? 'SLOW: fsync of redo log and binlog at every commit'
        : r.kind === 'broken'
          ? 'FAILS TO BUILD: C syntax error'
          : r.kind === 'drift'
            ? `DRIFT: ${r.extraInstructions!} more instructions per query`
            : 'normal';
    lines.push(`  ${r.tag.padEnd(18)} ${r.commit.slice(0, 12)}  ${what}  [${r.serverArgs.join(' ')}]`);
  }
  lines.push('', 'not release tags (lightweight):');
  for (const t of demo.otherTags) lines.push(`  ${t.name}`);
  lines.push(
    '',
    `hostile tag names (lightweight, on ` +
      `${demo.hostileTags[0]?.commit.slice(0, 12) ?? '-'}; a shell that ran ` +
      `one would create ${demo.hostileMarker}):`,
  );
  for (const t of demo.hostileTags) lines.push(`  ${JSON.stringify(t.name)}`);
  const b = demo.bisect;
  lines.push('', `bisection series: ${b.goodTag} (good), then ${b.steps.length} untagged commits, then ${b.badTag}:`);
  for (const step of b.steps) {
    const mark =
      step.kind === 'slow'
        ? `  <- SLOW from here on (durable commits, ${BISECT_EXTRA_INSTRUCTIONS} more instructions per query)`
        : step.kind === 'broken'
          ? '  <- FAILS TO BUILD'
          : '';
    lines.push(`  ${step.commit.slice(0, 12)}  ${JSON.stringify(step.subject)}${mark}`);
  }
  lines.push(
    '',
    `slow: ${demo.slowTag}    fails to build: ${demo.brokenTag}    drift ` +
      `series (about 3% more instructions per range read each): ${demo.driftTags.join(' ')}`,
  );
  return lines.join('\n') + '\n';
}
