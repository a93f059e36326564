// A process for bench:daemon's floor: `node floor-process.js bare` waits and does nothing; `libraries` also loads the
// libraries an idle daemon loads (zod, yaml, pino, better-sqlite3, node-cron, prom-client; mysql2, nodemailer and
// systeminformation load only when a session or a mail needs them), schedules a node-cron task in a time zone
// (node-cron formats dates with Intl), serves HTTP on 127.0.0.1 and collects prom-client's process metrics once, as the
// daemon does, and runs nothing of qpswatch. It runs until it is stopped.
import { createServer } from 'node:http';

const mode = process.argv[2];
if (mode === 'libraries') {
  await import('zod');
  await import('yaml');
  await import('pino');
  await import('better-sqlite3');
  const cron = (await import('node-cron')).default;
  cron.schedule('33 3 29 2 *', () => undefined, { timezone: 'UTC' });
  const { collectDefaultMetrics, Registry } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1000 });
  await registry.metrics();
  createServer((_req, res) => res.end('ok\n')).listen(0, '127.0.0.1');
} else if (mode === 'bare') {
  setInterval(() => undefined, 2 ** 30);
} else {
  process.stderr.write(`floor-process: expected "bare" or "libraries", got ${JSON.stringify(mode)}\n`);
  process.exit(2);
}
