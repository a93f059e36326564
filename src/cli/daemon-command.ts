import { runDaemon } from '../daemon/index.js';
import { createMetricsExposition, startMetricsServer, type MetricsServer } from '../metrics/index.js';
import { storeMetricsSource } from '../views/index.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openWorker, type Worker } from './daemon-setup.js';
import { packageVersion } from './package-version.js';
import { parseCommandArgs } from './parse-args.js';

const HELP = `Usage: qpswatch daemon

Runs until SIGTERM or SIGINT (systemctl stop qpswatch; Ctrl-C). On the config's schedule (schedule,
schedule_timezone; default hourly at minute 17, UTC) it runs one cycle at a time: discover every upstream,
queue the new releases, and take each in version order through build, a wait for a quiet host and a check
against the last good release (see \`qpswatch once\`). The queue is in the store, so a restart resumes
where it stopped: a build or session cut off is redone, and a daemon that missed a poll while it was down
polls at once when it starts. Prometheus metrics are served on metrics_host:metrics_port (/metrics,
/healthz).

Only one daemon benchmarks on a host: the host lock (host_lock) holds its pid. SIGTERM stops sysbench and
mysqld by escalation, marks the running session interrupted (it is redone at the next start) and exits.

Exit codes: 0 stopped by SIGTERM/SIGINT; 1 failed; 2 bad input (config, a lock held by another daemon,
the metrics port in use).
`;

const FLAGS = {} as const;

export const daemonCommand: Command = {
  name: 'daemon',
  summary: 'poll, build and check on a schedule until stopped; serve Prometheus metrics',
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [
    {
      does: 'Run the watcher in the foreground, as the systemd unit does',
      line: 'qpswatch daemon -c /etc/qpswatch/qpswatch.yaml',
    },
  ],
  needsConfig: true,
  async run(args, ctx) {
    parseCommandArgs(args, FLAGS, HELP);
    const worker = await openWorker(ctx);
    let metrics: MetricsServer | undefined;
    try {
      // metrics_port 0 means no metrics server (for the server itself, port 0 would mean "any free port").
      if (ctx.config.metrics_port !== 0) metrics = await startMetrics(ctx, worker);
      await runDaemon(worker.deps);
    } finally {
      await metrics?.close();
      await worker.close();
    }
    return EXIT_OK;
  },
};

async function startMetrics(ctx: CommandContext, { store, deps }: Worker): Promise<MetricsServer> {
  const { status, settings } = deps;
  const source = storeMetricsSource(store, ctx.upstreams, {
    versionsPerSeries: ctx.config.metrics_versions_per_series,
    // In a fleet each daemon exports its own host; `qpswatch metrics` serves them all.
    runner: ctx.config.host_name,
    // The verdicts' own thresholds, so the rules and dashboards compare with what the checks use.
    thresholds: settings.verdicts,
    instructions: settings.instructions.verdicts,
    ...(settings.verdicts.confidence !== undefined ? { confidence: settings.verdicts.confidence } : {}),
    build: { version: packageVersion() },
    status: () => {
      const s = status.get();
      return {
        phase: s.phase,
        queue: s.queue,
        lastPollSeconds: s.lastPollAt === null ? null : Date.parse(s.lastPollAt) / 1000,
        pollIntervalSeconds: s.pollIntervalSeconds,
        quietHostWaitSeconds: s.quietWaitSeconds,
      };
    },
  });
  const log = ctx.log.child({ component: 'metrics' });
  // The build's and session's progress and the cache sizes come from the daemon's memory, never from a walk.
  source.progress = () => status.progress();
  const exposition = createMetricsExposition(source);
  const server = await startMetricsServer({
    host: ctx.config.metrics_host,
    port: ctx.config.metrics_port,
    source,
    log,
    exposition,
  });
  // The first render reads every done session's samples and keeps the text (half a second over 100,000 samples):
  // done now, in the background, so the first scrape is as fast as the others.
  exposition
    .metrics()
    .catch((err: unknown) =>
      log.warn(
        { error: err instanceof Error ? err.message : String(err) },
        'warming the metrics cache failed; the first scrape will read the store',
      ),
    );
  return server;
}
