import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A real git remote behind HTTP Basic auth: git's "dumb" HTTP protocol, which is the bare repository's files
 * (after `git update-server-info`) served as they are. Each request first reads every command line on the host,
 * while git waits for the answer, and keeps those that hold `secret`: what `ps` would show other users.
 */
export interface AuthGitServer {
  /** http://127.0.0.1:PORT/ */
  readonly base: string;
  /** Command lines seen holding the secret (pid: argv); empty is the goal. */
  readonly leaks: string[];
  /** Requests that carried the right credentials. */
  logins: number;
  close(): void;
}

export async function startAuthGitServer(
  servedDir: string,
  user: string,
  password: string,
  secrets: readonly string[],
): Promise<AuthGitServer> {
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const state = { leaks: [] as string[], logins: 0 };
  const server: Server = createServer((req, res) => {
    state.leaks.push(...commandLinesHolding(secrets));
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    state.logins++;
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    try {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(join(servedDir, path)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/`,
    leaks: state.leaks,
    get logins() {
      return state.logins;
    },
    close: () => server.close(),
  };
}

/** Every command line on the host that holds one of `secrets` (pid: argv joined by spaces). */
export function commandLinesHolding(secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (secrets.some((s) => cmdline.includes(s))) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone already
    }
  }
  return found;
}
