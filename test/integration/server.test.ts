import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import {
  checkServerOptions,
  initDatadir,
  parseServerProfile,
  PortInUseError,
  renderMyCnf,
  resolveServerBinaries,
  serverPaths,
  ServerBinaryMissingError,
  ServerOptionsError,
  ServerStartError,
  ServerVersionError,
  SocketInUseError,
  SocketPathTooLongError,
  startServer,
  type RunningServer,
  type ServerBinaries,
  type ServerNetwork,
  type ServerPaths,
  type ServerProfile,
} from '../../src/server/index.js';
import { letServerPass } from '../helpers/server-user.js';
import { silentLog } from '../helpers/silent-log.js';

const BASEDIR = '/usr';
const SMALL = `
description: small and quick, for tests
settings:
  innodb_buffer_pool_size: 64M
  innodb_log_file_size: 48M
  performance_schema: 0
  skip-name-resolve: true
`;

let root = '';
let binaries: ServerBinaries;
let profile: ServerProfile;
let template = '';
let counter = 0;

/** Dead or alive, without touching it: signal 0 only checks. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Instance {
  dir: string;
  paths: ServerPaths;
  myCnfPath: string;
}

/** A state dir with a copy of the initialised template datadir and a my.cnf rendered from `which`. */
async function instance(which: ServerProfile = profile, network?: ServerNetwork): Promise<Instance> {
  const dir = join(root, `s${++counter}`);
  const paths = serverPaths(dir);
  await mkdir(dir, { recursive: true });
  await cp(template, paths.datadir, { recursive: true });
  const myCnfPath = join(dir, 'my.cnf');
  await writeFile(myCnfPath, renderMyCnf(which, binaries, paths, network));
  return { dir, paths, myCnfPath };
}

async function startIn(t: TestContext, inst: Instance, network?: ServerNetwork): Promise<RunningServer> {
  const server = await startServer({
    log: silentLog,
    binaries,
    myCnfPath: inst.myCnfPath,
    paths: inst.paths,
    logFile: join(inst.dir, 'mysqld.out'),
    readyTimeoutMs: 60_000,
    stopTimeoutMs: 30_000,
    ...(network ? { network } : {}),
  });
  t.after(() => server.stop());
  return server;
}

before(async () => {
  // Short: the socket path must stay under 107 bytes.
  root = letServerPass(await mkdtemp('/tmp/qpsw-srv-'));
  binaries = await resolveServerBinaries('mariadb', BASEDIR);
  profile = parseServerProfile(SMALL, 'small-test', 'test/integration/server.test.ts');
  const paths = serverPaths(join(root, 'template'));
  await mkdir(join(root, 'template'), { recursive: true });
  const myCnfPath = join(root, 'template', 'my.cnf');
  await writeFile(myCnfPath, renderMyCnf(profile, binaries, paths));
  await initDatadir({ log: silentLog, binaries, myCnfPath, paths, logFile: join(root, 'template', 'init.log') });
  template = paths.datadir;
});

after(async () => {
  if (root !== '') await rm(root, { recursive: true, force: true });
});

describe('server binaries on this host', () => {
  test('/usr resolves to the distribution mariadbd and its install script', () => {
    assert.equal(binaries.mysqld, '/usr/sbin/mariadbd');
    assert.equal(binaries.installDb, '/usr/bin/mariadb-install-db');
    assert.equal(binaries.basedir, '/usr');
    assert.equal(binaries.version.major, 10);
    assert.match(binaries.versionText, /Ver 10\.\d+\.\d+-MariaDB/);
  });

  test('a missing basedir names the paths tried and the fix', async () => {
    await assert.rejects(resolveServerBinaries('mariadb', '/nonexistent/qpswatch'), (err: unknown) => {
      assert.ok(err instanceof ServerBinaryMissingError);
      assert.ok(err.tried.includes('/nonexistent/qpswatch/sbin/mariadbd'));
      assert.match(err.message, /install the server package or fix the target's basedir/);
      return true;
    });
  });

  test('the distribution mysqld (a MariaDB symlink) is refused as flavor mysql', async () => {
    await assert.rejects(resolveServerBinaries('mysql', BASEDIR), ServerVersionError);
  });
});

describe('startServer with the real mariadbd', () => {
  test('starts on a private socket, answers queries, stops and leaves no process', async (t) => {
    const inst = await instance();
    const server = await startIn(t, inst);
    assert.ok(alive(server.pid));
    assert.equal(server.isRunning(), true);
    const rows = await server.query('SELECT VERSION() AS version, @@socket AS socket, @@skip_networking AS skip');
    assert.ok(String(rows[0]!['version']).startsWith(binaries.version.text), String(rows[0]!['version']));
    assert.equal(rows[0]!['socket'], inst.paths.socket);
    assert.equal(rows[0]!['skip'], 1);

    const conn = await server.connect();
    const [own] = await conn.query('SELECT @@innodb_buffer_pool_size AS bp');
    assert.equal((own as Array<Record<string, unknown>>)[0]!['bp'], 64 * 1024 * 1024);
    await conn.end();

    const exit = await server.stop();
    assert.deepEqual(exit, { exitCode: 0, signal: null, forced: false });
    assert.equal(alive(server.pid), false);
    assert.equal(server.isRunning(), false);
    assert.deepEqual(await server.stop(), exit, 'stop is idempotent');
    await assert.rejects(stat(inst.paths.socket), 'the socket file is gone');
  });

  test('listens on TCP when a network is configured', async (t) => {
    const port = await freePort();
    const network = { port, bindAddress: '127.0.0.1' };
    const inst = await instance(profile, network);
    const server = await startIn(t, inst, network);
    const rows = await server.query('SELECT @@port AS port, @@skip_networking AS skip');
    assert.equal(rows[0]!['port'], port);
    assert.equal(rows[0]!['skip'], 0);
    await assert.rejects(listen(port), 'the port is taken by the server');
  });

  test('an option the server rejects fails the start with the error log line', async (t) => {
    const bad = parseServerProfile(`${SMALL}  foo: 1\n`, 'bad', 'bad.yaml');
    const inst = await instance(bad);
    await assert.rejects(startIn(t, inst), (err: unknown) => {
      assert.ok(err instanceof ServerStartError, String(err));
      assert.equal(err.reason, 'exited');
      assert.ok(
        err.logErrors.some((l) => l.includes("[ERROR] /usr/sbin/mariadbd: unknown variable 'foo=1'")),
        err.message,
      );
      assert.ok(err.message.includes("unknown variable 'foo=1'"));
      assert.ok(err.message.includes(inst.paths.errorLog));
      assert.equal(alive(err.pid!), false);
      return true;
    });
    // The same mistake, caught in a fraction of a second before any init.
    await assert.rejects(checkServerOptions(binaries, inst.myCnfPath), (err: unknown) => {
      assert.ok(err instanceof ServerOptionsError);
      assert.ok(err.message.includes("unknown variable 'foo=1'"), err.message);
      return true;
    });
  });

  test('a socket that already answers is refused before mysqld starts', async (t) => {
    const inst = await instance();
    const squatter = await listenOn(inst.paths.socket);
    t.after(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
    await assert.rejects(startIn(t, inst), (err: unknown) => {
      assert.ok(err instanceof SocketInUseError);
      assert.equal(err.socket, inst.paths.socket);
      assert.match(err.message, /another state directory/);
      return true;
    });
  });

  test('a TCP port in use is refused, naming the port', async (t) => {
    const squatter = await listen(0);
    t.after(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
    const port = (squatter.address() as { port: number }).port;
    const network = { port, bindAddress: '127.0.0.1' };
    const inst = await instance(profile, network);
    await assert.rejects(startIn(t, inst, network), (err: unknown) => {
      assert.ok(err instanceof PortInUseError);
      assert.equal(err.port, port);
      assert.ok(err.message.includes(`TCP port ${port}`));
      return true;
    });
  });

  test('a socket path over the unix limit is refused, naming the path', () => {
    const dir = join(root, 'x'.repeat(120));
    assert.throws(
      () => serverPaths(dir),
      (err: unknown) => err instanceof SocketPathTooLongError && err.message.includes(dir),
    );
  });

  test('a missing datadir says to initialise it', async (t) => {
    const paths = serverPaths(join(root, 'never-initialised'));
    await assert.rejects(
      startServer({
        log: silentLog,
        binaries,
        myCnfPath: '/nonexistent.cnf',
        paths,
        logFile: join(root, 'never.out'),
      }).then((s) => t.after(() => s.stop())),
      (err: unknown) =>
        err instanceof ServerStartError && err.reason === 'no-datadir' && err.message.includes('initDatadir'),
    );
  });

  test('a server that does not answer in time is stopped', async (t) => {
    const inst = await instance();
    await assert.rejects(
      startServer({
        log: silentLog,
        binaries,
        myCnfPath: inst.myCnfPath,
        paths: inst.paths,
        logFile: join(inst.dir, 'mysqld.out'),
        readyTimeoutMs: 1,
        stopTimeoutMs: 30_000,
      }).then((s) => t.after(() => s.stop())),
      (err: unknown) => {
        assert.ok(err instanceof ServerStartError);
        assert.equal(err.reason, 'timeout');
        assert.equal(alive(err.pid!), false);
        return true;
      },
    );
  });

  test('a crash shows up in exited, and stop afterwards is quick', async (t) => {
    const inst = await instance();
    const server = await startIn(t, inst);
    process.kill(server.pid, 'SIGKILL');
    const exit = await server.exited;
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(server.isRunning(), false);
    assert.deepEqual(await server.stop(), exit);
  });

  test('a hung server is stopped by escalation, SIGKILL at the end', async (t) => {
    const inst = await instance();
    const server = await startServer({
      log: silentLog,
      binaries,
      myCnfPath: inst.myCnfPath,
      paths: inst.paths,
      logFile: join(inst.dir, 'mysqld.out'),
      stopTimeoutMs: 500,
    });
    t.after(() => {
      if (alive(server.pid)) process.kill(server.pid, 'SIGCONT');
      return server.stop();
    });
    process.kill(server.pid, 'SIGSTOP');
    const exit = await server.stop();
    assert.equal(exit.forced, true);
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(alive(server.pid), false);
  });
});

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => resolve(server));
  });
}

function listenOn(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end());
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listen(0);
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
