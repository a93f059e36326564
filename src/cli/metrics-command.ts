import {
  createMetricsExposition,
  MetricsHostError,
  MetricsPortInUseError,
  startMetricsServer,
  type MetricsServer,
} from '../metrics/index.js';
import { fleetMetricsSource } from '../views/index.js';
import type { Store } from '../store/index.js';
import type { Command, CommandContext } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { noUpstreamsError } from './no-upstreams.js';
import { openStateStore } from './open-state-store.js';
import { packageVersion } from './package-version.js';
import { parseCommandArgs } from './parse-args.js';
import { UsageError } from './usage-error.js';

/** One above the daemon's metrics_port, so the two can run on one host without a flag. */
const DEFAULT_LISTEN = '127.0.0.1:9468';

const HELP = `Usage: qpswatch metrics [--listen HOST:PORT]

Serves the fleet's per-release figures for Prometheus (/metrics, /healthz) from the store, for every host whose
sessions it holds: the same families and labels as the daemon's per-release figures (qpswatch_qps,
qpswatch_relative_qps_ratio, the per-op figures, verdicts, thresholds ...), each sample labelled with its host's
fingerprint id, each host relative to the base measured on that host. Nothing of a daemon's own status (phase,
queue, builds, polls) is served: that comes from each daemon's own /metrics. Only reads the store; runs until
SIGTERM or SIGINT.

Scrape it as a job of its own (grafana/prometheus/scrape.yml has one); the dashboards' host variable picks the
hosts.

Options:
  --listen HOST:PORT  the address to serve on (default ${DEFAULT_LISTEN}, loopback: the figures name hosts and
                      versions); [::1]:PORT for IPv6, port 0 for any free port (the log says which)
Exit codes: 0 stopped by SIGTERM/SIGINT; 2 bad input (no upstreams, an address that cannot be listened on).
`;

const FLAGS = { listen: { type: 'string' } } as const;

export const metricsCommand: Command = {
  name: 'metrics',
  summary: "serve every host's per-release figures from the store for Prometheus, until stopped",
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [{ does: "Serve the store's figures to Prometheus", line: 'qpswatch metrics --listen 127.0.0.1:9468' }],
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, FLAGS, HELP);
    const listen = parseListen(values.listen ?? DEFAULT_LISTEN);
    if (ctx.upstreams.length === 0) throw noUpstreamsError(ctx, HELP);
    const store = await openStateStore(ctx, { readonly: true });
    let server: MetricsServer | undefined;
    try {
      server = await serve(ctx, store, listen);
      await stopped(ctx.signal);
    } finally {
      await server?.close();
      await store.close();
    }
    return EXIT_OK;
  },
};

interface Listen {
  text: string;
  host: string;
  port: number;
}

/** HOST:PORT, or [IPv6]:PORT; the host is checked by listening on it. */
export function parseListen(text: string): Listen {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+)):(\d{1,5})$/.exec(text);
  const port = m === null ? Number.NaN : Number(m[3]);
  if (m === null || port > 65535)
    throw new UsageError(
      `--listen ${JSON.stringify(text)}: expected HOST:PORT with a port from 0 to 65535, e.g. ${DEFAULT_LISTEN}`,
      HELP,
    );
  return { text, host: (m[1] ?? m[2])!, port };
}

async function serve(ctx: CommandContext, store: Store, listen: Listen): Promise<MetricsServer> {
  const source = fleetMetricsSource(store, ctx.upstreams, {
    versionsPerSeries: ctx.config.metrics_versions_per_series,
    thresholds: { threshold: ctx.config.threshold, testThresholds: ctx.config.test_thresholds },
    instructions: {
      threshold: ctx.config.instructions_threshold,
      testThresholds: ctx.config.instructions_test_thresholds,
    },
    confidence: ctx.config.confidence,
    build: { version: packageVersion() },
  });
  const log = ctx.log.child({ component: 'metrics' });
  const exposition = createMetricsExposition(source);
  let server: MetricsServer;
  try {
    server = await startMetricsServer({ host: listen.host, port: listen.port, source, log, exposition });
  } catch (err) {
    // The server's errors name the daemon's settings; here the address came from --listen.
    if (err instanceof MetricsPortInUseError)
      throw new UsageError(`--listen ${listen.text}: the port is in use: stop what holds it or choose another`);
    if (err instanceof MetricsHostError)
      throw new UsageError(
        `--listen ${listen.text}: cannot listen on ${listen.host} (${err.reason}): use an address of this host`,
      );
    throw err;
  }
  // The first render reads every done session's samples once: done now, so the first scrape is as fast as the others.
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

function stopped(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
