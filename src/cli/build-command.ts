import { waitForHostLock } from '../daemon/index.js';
import { buildSettings, obtainRelease } from '../releases/index.js';
import { splitVariant } from '../session/index.js';
import { printable } from '../report/index.js';
import type { Logger } from '../log/index.js';
import type { WorkProgress } from '../model/index.js';
import type { Command } from './command.js';
import { findRelease } from './find-release.js';
import { EXIT_FAILED, EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { withProgress } from './progress-display.js';
import { parseCommandArgs } from './parse-args.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: qpswatch build TAG[@PROFILE] [--upstream NAME] [--retry]

Builds one release of an upstream with its build profile (cmake configure, build, install) and installs it
under state_dir/builds/<key>/install, where key = (commit, profile hash, patches' sha256, compiler version).
TAG@PROFILE builds the tag with another build profile of build_profiles_dir (a build variant, e.g.
mariadb-10.11.9@mariadb-rel-nops), which compare can then name the same way. Patch files the upstream or
the profile lists are applied first (git apply); one that does not apply fails the build with one line.
The same key is never built twice: a second call says so and does nothing. A failed build is recorded with
the last lines of its log and is not built again until its key changes or --retry is given. Unknown tags
are looked up by running discovery first.

A build takes the host (host_lock) as a benchmark does: it waits while a compare, a check or another
build runs, and stops at once when a daemon holds the host (the daemon builds what it queues). Two
builds of one key never run at once: the second waits and then finds it built.

Options:
  --upstream NAME   the upstream, when several have this tag
  --retry           build again a key whose build failed
Exit codes: 0 built (or built before); 1 the build failed; 2 bad input (unknown tag, bad config, a daemon
holds the host).
`;

const FLAGS = { upstream: { type: 'string' }, retry: { type: 'boolean' } } as const;

export const buildCommand: Command = {
  name: 'build',
  summary: 'build one release tag (once per commit, profile and compiler)',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [
    { does: "Build a release with its upstream's build profile", line: 'qpswatch build mariadb-10.11.9' },
    { does: 'The same tag with another build profile', line: 'qpswatch build mariadb-10.11.9@mariadb-rel-nops' },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    if (positionals.length !== 1) throw new UsageError('build takes one TAG', HELP);
    const { tag, buildProfile } = splitVariant(positionals[0]!);
    const store = await openStateStore(ctx);
    try {
      const release = await findRelease(tag, values.upstream, store, ctx, true);
      const upstream = ctx.upstreams.find((u) => u.name === release.upstream)!;
      const takeHost = (holds: string) =>
        waitForHostLock(ctx.config.host_lock, { command: 'build', holds, signal: ctx.signal, log: ctx.log });
      // On a terminal the status line shows the compile; piped, the log gets a line at each 5%.
      const logged = ctx.statusLine === undefined ? progressLogger(ctx.log) : undefined;
      // A tarball upstream's release is downloaded, verified and unpacked instead of built.
      const outcome = await withProgress(ctx, 'build', (report) =>
        obtainRelease(
          release,
          upstream,
          {
            settings: buildSettings(ctx.config),
            store,
            log: ctx.log,
            signal: ctx.signal,
            takeHost,
            onWorkProgress: (work) => {
              report(work);
              logged?.(work);
            },
          },
          values.retry === true,
          buildProfile,
        ),
      );
      const name = JSON.stringify(buildProfile === undefined ? release.tag : `${release.tag}@${buildProfile}`);
      switch (outcome.status) {
        case 'built':
          ctx.stdout(`built ${name} in ${outcome.seconds?.toFixed(1)} s: ${outcome.installDir}\n`);
          return EXIT_OK;
        case 'already-built':
          ctx.stdout(`${name} is built already (key ${outcome.key}): ${outcome.installDir}\n`);
          return EXIT_OK;
        case 'failed':
        case 'failed-before':
          ctx.stdout(
            `build of ${name} ` +
              `${outcome.status === 'failed' ? 'failed' : 'failed before and was not retried (--retry)'}; ` +
              `log ` +
              `${outcome.logFile}\n${outcome.failureLines.map((l) => `  ${printable(l)}\n`).join('')}`,
          );
          return EXIT_FAILED;
      }
    } finally {
      await store.close();
    }
  },
};

/**
 * A build by hand says how far it is, as the daemon's status does: one line at each step and each 5% of the compile,
 * with the expected end (from the series' last build, else the rate so far).
 */
function progressLogger(log: Logger): (work: WorkProgress) => void {
  let shown = '';
  return (work) => {
    if (work.kind !== 'build') return;
    const percent = Math.floor(work.ratio * 20) * 5;
    if (`${work.step} ${percent}` === shown) return;
    shown = `${work.step} ${percent}`;
    const { tag, step, done, total, endsAt, etaFrom } = work;
    log.info({ tag, step, percent, done, total, endsAt, etaFrom }, 'compile progress');
  };
}
