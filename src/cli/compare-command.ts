import { waitForHostLock } from '../daemon/index.js';
import { checkMemorySettings, checkSessionReach, compareSettings, runComparison } from '../session/index.js';
import { parseReportFormat, renderComparison, verdictHeadline, type ReportFormat } from '../report/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { parseCommandArgs } from './parse-args.js';
import { SUITE_FLAGS, SUITE_FLAGS_HELP, suiteFromFlags } from './suite-flags.js';
import { UsageError } from './usage-error.js';
import { openStateStore } from './open-state-store.js';
import { withProgress } from './progress-display.js';
import { isMemorySetting, memorySettings, type ComparisonView, type MemorySettingName } from '../model/index.js';

const HELP = `Usage: qpswatch compare --baseline NAME --candidate NAME [options]

Runs one comparison session on this host. Paired design (default): both targets are loaded, both
servers run side by side on fresh copies of their loaded datadirs, and every test is measured as
short alternating pairs seconds apart (B C, C B, ...), the other server idle and settled; pairs are
added to the tests not yet decided until all are decided or the budget is spent. Whole-run design
(--design runs or --rounds N): whole-suite runs in rounds, one server at a time.
Prints relative QPS per test with its interval, the smallest drop the session could detect, and a
verdict: regression, improvement, ok ("no drop larger than X%"), slower (significantly slower, not
past the threshold: "slower 0.962 (0.931-0.987)") or unstable; then per test the host
resources per operation (cpu/o cs/o r/o rKB/o wKB/o o/s), absolute and relative to the baseline
(threshold, test_thresholds, alpha and confidence in the config; see docs/verdicts.md). Before
those, the server variables and the statement plans that differ between the two sides.
Targets are named in the config (targets:; see config/quickstart.yaml), or are releases qpswatch built:
TAG runs the build with its upstream's build profile, TAG@PROFILE the build with that profile (qpswatch
build TAG@PROFILE first), so one tag can be compared with itself built two ways, e.g.
  --baseline mariadb-10.11.9@mariadb-rel --candidate mariadb-10.11.9@mariadb-rel-nops
The report names each side's build profile.
After the pairs, the instructions lane counts each 1-thread test's instructions per query on both
servers (callgrind, or perf where the host has a PMU; instruction_counter, instructions_* in the
config); every format carries its table (C/B, the repeats' spread, a verdict) and, per test, the
functions that grew from B to C.

Options:
  --baseline NAME      target B, the reference
  --candidate NAME     target C, the one being judged
${SUITE_FLAGS_HELP}
  --memory LIST        run the suite under these memory settings, one session each: cached, io-bound
                       or cached,io-bound (default: the memory option; none: the profiles as they are)
  --format FORMAT      text (default), md, csv, json or html (two sessions: json an array, csv one header,
                       html refused: print each with qpswatch show ID --format html)

One benchmark or build at a time on a host (host_lock): a compare waits while another compare, a check
or a build runs, and stops at once when a daemon holds the host.

Progress goes to stderr: on a terminal one status line (sweep, tests decided, time left) under one short line
per event; elsewhere JSON log lines (--log-format), none but warnings with -q. The report goes to stdout.
\`qpswatch status\` in another terminal shows the session's progress too.
Exit codes: 0 done; 1 failed on the way (server, sysbench, store); 2 bad input (or a daemon holds the host).
`;

const FLAGS = {
  baseline: { type: 'string' },
  candidate: { type: 'string' },
  ...SUITE_FLAGS,
  memory: { type: 'string' },
  format: { type: 'string' },
} as const;

export const compareCommand: Command = {
  name: 'compare',
  summary: 'benchmark two targets against each other, interleaved, and print the report',
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [
    {
      does: "The quickstart: relaxed commits against durable ones, on this host's MariaDB",
      line: 'qpswatch -c config/quickstart.yaml compare --baseline relaxed --candidate durable --suite quick',
    },
    {
      does: 'Two built releases, at most 30 minutes, as markdown',
      line: 'qpswatch compare --baseline mariadb-10.11.8 --candidate mariadb-10.11.9 --budget 30 -f md',
    },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, FLAGS, HELP);
    if (values.baseline === undefined || values.candidate === undefined)
      throw new UsageError('compare needs --baseline and --candidate', HELP);
    const format = parseReportFormat(values.format ?? 'text');
    const { suite, rounds, shape } = suiteFromFlags(values, ctx);
    // The instructions lane runs after the pairs of every compare (instruction_counter off: none).
    const request = {
      baseline: values.baseline,
      candidate: values.candidate,
      suite,
      rounds,
      ...shape,
      instructions: true,
    };
    const settings = compareSettings(ctx.config, ctx.env);
    const memory = values.memory !== undefined ? parseMemoryFlag(values.memory) : settings.memory;
    if (memory.length > 1 && format === 'html')
      throw new UsageError(
        '--format html prints one session, and --memory names two: give one ' +
          'memory setting at a time, or print each session with qpswatch show ID ' +
          '--format html',
        HELP,
      );
    // Settings that can never reach a verdict are refused at once, not after waiting for the host.
    checkSessionReach(request, settings);
    const holds = `a compare session (${JSON.stringify(values.baseline)} against ${JSON.stringify(values.candidate)})`;
    const lock = await waitForHostLock(ctx.config.host_lock, {
      command: 'compare',
      holds,
      signal: ctx.signal,
      log: ctx.log,
    });
    try {
      const store = await openStateStore(ctx);
      try {
        // One session per memory setting, one after the other: each is judged and reported on its own. Every
        // setting is checked against the data first, so the second is not refused after the first session.
        if (memory.length > 1)
          await checkMemorySettings(request, memory, { settings, store, log: ctx.log, upstreams: ctx.upstreams });
        const views = await withProgress(ctx, 'compare', async (onWorkProgress) => {
          const out = [];
          for (const setting of memory.length > 0 ? memory : [undefined]) {
            const outcome = await runComparison(
              { ...request, ...(setting !== undefined ? { memory: setting } : {}) },
              { settings, store, log: ctx.log, upstreams: ctx.upstreams, signal: ctx.signal, onWorkProgress },
            );
            // The instructions lane is part of the report in every format.
            out.push(
              outcome.instructions !== undefined
                ? { ...outcome.view, instructions: outcome.instructions }
                : outcome.view,
            );
            ctx.log.info(
              { sessionId: outcome.sessionId },
              `session ${outcome.sessionId}: ${verdictHeadline(outcome.verdicts.map((v) => v.kind))}; ` +
                `\`qpswatch show ${outcome.sessionId}\` prints it again`,
            );
          }
          return out;
        });
        ctx.stdout(renderSessions(views, format, ctx.stdoutColor));
      } finally {
        await store.close();
      }
    } finally {
      lock.release();
    }
    return EXIT_OK;
  },
};

/**
 * The reports of one or more sessions (one per memory setting): text and md one after the other; json an array when
 * there are several; csv one header, since each record names its memory setting.
 */
function renderSessions(views: readonly ComparisonView[], format: ReportFormat, color: boolean): string {
  if (views.length === 1) return renderComparison(views[0]!, format, undefined, { color });
  const reports = views.map((v) => renderComparison(v, format, undefined, { color }));
  if (format === 'json') return `[\n${reports.map((r) => r.trimEnd()).join(',\n')}\n]\n`;
  if (format === 'csv')
    return (
      reports[0]! +
      reports
        .slice(1)
        .map((r) => r.slice(r.indexOf('\n') + 1))
        .join('')
    );
  return reports.join('\n');
}

/** --memory cached,io-bound: each setting once, in the order given. */
export function parseMemoryFlag(text: string): MemorySettingName[] {
  const list = text.split(',').map((s) => s.trim());
  if (list.some((s) => !isMemorySetting(s)) || new Set(list).size !== list.length) {
    throw new UsageError(
      `--memory ${JSON.stringify(text)}: expected ${memorySettings.join(', ')} ` +
        `or both, comma-separated, each once (e.g. cached,io-bound)`,
    );
  }
  return list as MemorySettingName[];
}
