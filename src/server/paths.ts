import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SocketPathTooLongError } from './errors.js';

/** Where one server instance keeps its files. qpswatch owns these; a profile cannot move them. */
export interface ServerPaths {
  readonly datadir: string;
  readonly socket: string;
  readonly pidFile: string;
  readonly errorLog: string;
  readonly tmpdir: string;
}

/** TCP listening; without it the server runs with skip-networking (unix socket only). */
export interface ServerNetwork {
  readonly port: number;
  readonly bindAddress: string;
}

/** sun_path is 108 bytes including the terminating NUL. */
export const UNIX_SOCKET_PATH_MAX = 107;

/** The standard layout under one state directory. */
export function serverPaths(stateDir: string): ServerPaths {
  const paths = {
    datadir: join(stateDir, 'data'),
    socket: join(stateDir, 'mysqld.sock'),
    pidFile: join(stateDir, 'mysqld.pid'),
    errorLog: join(stateDir, 'error.log'),
    tmpdir: join(stateDir, 'tmp'),
  };
  checkSocketPath(paths.socket);
  return paths;
}

export function checkSocketPath(socket: string): void {
  if (Buffer.byteLength(socket) > UNIX_SOCKET_PATH_MAX) throw new SocketPathTooLongError(socket, UNIX_SOCKET_PATH_MAX);
}

/** Folders the server expects to exist (it creates none of them itself, except the datadir at init). */
export async function prepareServerDirs(paths: ServerPaths): Promise<void> {
  for (const dir of new Set([paths.tmpdir, dirname(paths.socket), dirname(paths.pidFile), dirname(paths.errorLog), dirname(paths.datadir)])) {
    await mkdir(dir, { recursive: true });
  }
}
