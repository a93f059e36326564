import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkServerOptions,
  initDatadir,
  listServerProfiles,
  loadServerProfile,
  renderMyCnf,
  resolveServerBinaries,
  serverPaths,
  startServer,
  type ServerBinaries,
} from '../../src/server/index.js';
import { letServerPass } from '../helpers/server-user.js';
import { silentLog } from '../helpers/silent-log.js';

let root = '';
let binaries: ServerBinaries;

before(async () => {
  root = letServerPass(await mkdtemp('/tmp/qpsw-prof-'));
  binaries = await resolveServerBinaries('mariadb', '/usr');
});

after(async () => {
  if (root !== '') await rm(root, { recursive: true, force: true });
});

async function writeCnf(
  name: string,
): Promise<{ dir: string; myCnfPath: string; paths: ReturnType<typeof serverPaths> }> {
  const dir = join(root, name);
  const paths = serverPaths(dir);
  await mkdir(dir, { recursive: true });
  const myCnfPath = join(dir, 'my.cnf');
  await writeFile(myCnfPath, renderMyCnf(await loadServerProfile(name), binaries, paths));
  return { dir, myCnfPath, paths };
}

describe('shipped profiles against the installed mariadbd', () => {
  test('every shipped profile is accepted, with no option the server calls removed or deprecated', async () => {
    const names = await listServerProfiles();
    assert.ok(names.length >= 3);
    for (const name of names) {
      const { myCnfPath } = await writeCnf(name);
      const check = await checkServerOptions(binaries, myCnfPath);
      assert.deepEqual(check.warnings, [], `${name}: ${check.warnings.join('; ')}`);
    }
  });

  test('relaxed initialises and starts, with the settings it promises', async (t) => {
    const { dir, myCnfPath, paths } = await writeCnf('relaxed');
    await initDatadir({ log: silentLog, binaries, myCnfPath, paths, logFile: join(dir, 'init.log') });
    const server = await startServer({ log: silentLog, binaries, myCnfPath, paths, logFile: join(dir, 'mysqld.out') });
    t.after(() => server.stop());
    const [row] = await server.query(
      'SELECT @@innodb_flush_log_at_trx_commit AS flush, @@sync_binlog AS sync, @@log_bin AS binlog, ' +
        '@@performance_schema AS ps, @@innodb_buffer_pool_size AS bp, @@innodb_log_file_size AS redo',
    );
    assert.deepEqual({ ...row }, { flush: 2, sync: 0, binlog: 1, ps: 0, bp: 1024 ** 3, redo: 512 * 1024 ** 2 });
    const exit = await server.stop();
    assert.equal(exit.exitCode, 0);
  });

  test(
    'studies initialises and starts: no binlog, no doublewrite, flush at 2, ' + 'O_DIRECT, IO sized to an SSD',
    async (t) => {
      const { dir, myCnfPath, paths } = await writeCnf('studies');
      await initDatadir({ log: silentLog, binaries, myCnfPath, paths, logFile: join(dir, 'init.log') });
      const server = await startServer({
        log: silentLog,
        binaries,
        myCnfPath,
        paths,
        logFile: join(dir, 'mysqld.out'),
      });
      t.after(() => server.stop());
      const [row] = await server.query(
        'SELECT @@log_bin AS binlog, @@innodb_doublewrite AS doublewrite, @@innodb_flush_log_at_trx_commit AS flush, ' +
          '@@innodb_flush_method AS method, @@innodb_io_capacity AS io, @@innodb_io_capacity_max AS ioMax, ' +
          '@@innodb_lru_scan_depth AS lru, @@innodb_buffer_pool_size AS bp, @@metadata_locks_hash_instances AS mdl',
      );
      // MariaDB accepts metadata_locks_hash_instances but does not use it: the profile sets it for MySQL 5.6/5.7 only.
      assert.deepEqual(
        { ...row },
        {
          binlog: 0,
          doublewrite: 0,
          flush: 2,
          method: 'O_DIRECT',
          io: 10000,
          ioMax: 20000,
          lru: 2048,
          bp: 4 * 1024 ** 3,
          mdl: 8,
        },
      );
      const exit = await server.stop();
      assert.equal(exit.exitCode, 0);
    },
  );
});
