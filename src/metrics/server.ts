import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log/index.js';
import { MetricsHostError, MetricsPortInUseError } from './errors.js';
import { createMetricsExposition, type MetricsExposition } from './exposition.js';
import type { MetricsSource } from './source.js';

export const DEFAULT_METRICS_HOST = '127.0.0.1';
export const DEFAULT_METRICS_PORT = 9467;

export interface MetricsServerOptions {
  /** Default 127.0.0.1: the figures name hosts and versions, so they are not offered to the network unasked. */
  host?: string;
  /** 0 takes a free port (tests, benchmarks); the one taken is in `url`. */
  port: number;
  source: MetricsSource;
  log: Logger;
  /** Default: createMetricsExposition(source). The daemon passes its own, so it can render it once at start. */
  exposition?: MetricsExposition;
  /** Connections open at once; more are closed as they come (default MAX_CONNECTIONS). */
  maxConnections?: number;
  /** A client that has not sent its request's headers within this is cut off (default HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number;
}

/**
 * A scrape is one short request from Prometheus (or a few, with Grafana and a person's curl): 32 connections at once
 * is plenty, and a client that opens hundreds and sends nothing (on a bind address others can reach, or from a local
 * user) cannot hold the daemon's file descriptors, which its builds and servers need.
 */
export const MAX_CONNECTIONS = 32;
/** A request's headers are a few hundred bytes: ten seconds for them cuts off a client that trickles them. */
export const HEADERS_TIMEOUT_MS = 10_000;

export interface MetricsServer {
  /** The base address, e.g. http://127.0.0.1:9467 (append /metrics or /healthz). */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops open connections; idempotent. */
  close(): Promise<void>;
}

/** Serves /metrics (from the source, through its exposition) and /healthz until closed. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const host = options.host ?? DEFAULT_METRICS_HOST;
  const exposition = options.exposition ?? createMetricsExposition(options.source);
  const log = options.log;
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: headersTimeout * 3,
      // Node looks for connections past their time only this often (30 s by default).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, headersTimeout / 4)),
    },
    (req, res) => {
      handle(req, res, exposition, log).catch((err: unknown) => {
        // handle() answers every error itself; this is only reached when the socket is already gone.
        log.warn({ error: oneLine(err) }, 'metrics request ended badly');
      });
    },
  );
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  await listen(server, host, options.port);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url: `${url}/metrics` }, 'metrics server listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Prometheus keeps its connection open between scrapes; without this close() would wait for it.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new MetricsPortInUseError(host, port));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
        reject(new MetricsHostError(host, err.code));
      else reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port });
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  exposition: MetricsExposition,
  log: Logger,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/metrics' && path !== '/healthz')
    return reply(res, 404, 'not found: this server has /metrics and /healthz\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return reply(res, 405, `${req.method ?? 'this method'} is not allowed: use GET\n`);
  }
  if (path === '/healthz') return reply(res, 200, 'ok\n');
  let body: string;
  try {
    body = await exposition.metrics();
  } catch (err) {
    // A store that is locked or gone fails this scrape only; Prometheus marks it down and tries again.
    log.error({ error: oneLine(err) }, 'metrics scrape failed');
    return reply(res, 500, `metrics unavailable: ${oneLine(err)}\n`);
  }
  reply(res, 200, body, exposition.contentType);
}

function reply(res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n', 1)[0]!.trim() || 'unknown error';
}
