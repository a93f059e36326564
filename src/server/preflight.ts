import { createConnection, createServer } from 'node:net';
import { PortInUseError, SocketInUseError } from './errors.js';

const PROBE_TIMEOUT_MS = 2000;

/** Another server answering on our socket would take our benchmark's connections: refuse to start. */
export async function assertSocketFree(socket: string): Promise<void> {
  if (await socketAnswers(socket)) throw new SocketInUseError(socket);
}

/** A stale socket file (nobody listening) is fine: the server replaces it. */
export function socketAnswers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection({ path: socket });
    const done = (answers: boolean): void => {
      probe.destroy();
      resolve(answers);
    };
    probe.setTimeout(PROBE_TIMEOUT_MS, () => done(true));
    probe.once('connect', () => done(true));
    probe.once('error', () => done(false));
  });
}

export function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(host, port) : err);
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}
