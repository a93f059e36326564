import { runOneCycle } from '../daemon/index.js';
import type { Command } from './command.js';
import { EXIT_FAILED, EXIT_OK } from './exit-codes.js';
import { openWorker } from './daemon-setup.js';
import { parseCommandArgs } from './parse-args.js';

const HELP = `Usage: qpswatch once

Runs one cycle of the daemon in the foreground, then exits: discovers every upstream, queues the new
releases, and takes each queued release in version order through build, a wait for a quiet host, and a
check against the last good release of its series (verdicts, regression events, email); then sends the
outbox. It uses the config's suite and rounds, takes the host lock like the daemon (so it never runs
beside one), and resumes what a stopped daemon left half-way. See \`qpswatch status\` for the queue.

Exit codes: 0 the cycle ran (releases that failed are in the queue with their reason); 1 every release
it tried failed, or it stopped on SIGINT/SIGTERM; 2 bad input (config, a lock held by a running daemon).
`;

const FLAGS = {} as const;

export const onceCommand: Command = {
  name: 'once',
  summary: 'one daemon cycle in the foreground: discover, build, check, email; then exit',
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [{ does: 'One cycle now (discover, build, check, email), then exit', line: 'qpswatch once' }],
  needsConfig: true,
  async run(args, ctx) {
    parseCommandArgs(args, FLAGS, HELP);
    const worker = await openWorker(ctx);
    try {
      const outcome = await runOneCycle(worker.deps);
      const line =
        `cycle done: ${outcome.enqueued} release(s) queued, ${outcome.built} ` +
        `built, ${outcome.buildFailures} build failure(s), ${outcome.checked} ` +
        `checked, ${outcome.failed} failed on the way`;
      ctx.stdout(`${line}\n`);
      const tried = outcome.built + outcome.buildFailures + outcome.checked + outcome.failed;
      return tried > 0 && outcome.checked + outcome.built === 0 && outcome.failed + outcome.buildFailures > 0
        ? EXIT_FAILED
        : EXIT_OK;
    } finally {
      await worker.close();
    }
  },
};
