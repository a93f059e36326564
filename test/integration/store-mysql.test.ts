import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { RowDataPacket } from 'mysql2/promise';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { PER_OP_FIGURES } from '../../src/model/index.js';
import {
  mysqlSchemaVersion,
  openStore,
  SchemaTooNewError,
  SchemaTooOldError,
  sqliteSchemaVersion,
  StoreOpenError,
  type Store,
} from '../../src/store/index.js';
import { mysqlLatestVersion, mysqlMigrations, VERSION_TABLE_STEPS } from '../../src/store/mysql/schema.js';
import { messageLines, runCli } from '../helpers/cli.js';
import {
  startResultsServer,
  STORE_PASSWORD,
  withMysqlStore as withStore,
  type ResultsServer,
} from '../helpers/results-db.js';
import { bisectionContract } from '../unit/store/bisection-contract.js';
import { calibrationContract } from '../unit/store/calibration-contract.js';
import { checkContract } from '../unit/store/check-contract.js';
import { profileContract } from '../unit/store/profile-contract.js';
import { sessionSidesContract } from '../unit/store/session-sides-contract.js';
import { instructionContract } from '../unit/store/instruction-contract.js';
import { queueContract } from '../unit/store/queue-contract.js';
import { storeContract } from '../unit/store/store-contract.js';
import { hostInput, sampleInput, sessionInput } from '../unit/store/store-inputs.js';
import { storedInstallPathContract } from '../unit/session/stored-install-path-contract.js';

/**
 * The MySQL backend (store_backend: mysql) against this host's MariaDB: the same contract the SQLite backend passes,
 * each test in a database of its own on one scratch server, then what only MySQL has (the migration lock, the
 * options, the connection's errors). Not timed, so it shares the host with other test files (host-share.ts).
 */
let started: Promise<ResultsServer> | undefined;
const server = (): Promise<ResultsServer> => (started ??= startResultsServer('qpsw-my-'));
after(async () => {
  if (started !== undefined) await (await started).close();
});

const fresh = async (): Promise<Store> => openStore(await (await server()).freshDatabase());

storeContract('mysql', fresh);
checkContract('mysql', fresh);
queueContract('mysql', fresh);
bisectionContract('mysql', fresh);
calibrationContract('mysql', fresh);
profileContract('mysql', fresh);
instructionContract('mysql', fresh);
sessionSidesContract('mysql', fresh);
storedInstallPathContract('mysql', fresh);

async function query<R = RowDataPacket>(sql: string, params: unknown[] = []): Promise<R[]> {
  const [rows] = await (await server()).admin.query(sql, params);
  return rows as R[];
}

async function tablesOf(database: string): Promise<string[]> {
  const rows = await query<{ name: string }>(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
    [database],
  );
  return rows.map((r) => r.name).sort();
}

describe('mysql backend', () => {
  test('two processes opening one empty database at once both succeed, and the schema is whole', async () => {
    const options = await (await server()).freshDatabase();
    const stores = await Promise.all([openStore(options), openStore(options), openStore(options)]);
    await Promise.all(stores.map((s) => s.close()));
    assert.deepEqual(await tablesOf(options.database), [
      'bisections',
      'builds',
      'calibrations',
      'checks',
      'daemon_state',
      'db_counters',
      'host_metrics',
      'hosts',
      'imported_results',
      'instruction_events',
      'instruction_functions',
      'instruction_lanes',
      'instruction_runs',
      'instruction_verdicts',
      'outbox',
      'profiles',
      'regression_events',
      'release_queue',
      'releases',
      'reruns',
      'results_mark',
      'samples',
      'schema_version',
      'session_figures',
      'session_quiet_host',
      'session_sides',
      'sessions',
      'store_write_lock',
      'triage',
      'verdicts',
    ]);
    const [version] = await query<{ version: number }>(`SELECT version FROM \`${options.database}\`.schema_version`);
    assert.equal(version?.version, mysqlSchemaVersion);
    assert.equal(mysqlSchemaVersion, sqliteSchemaVersion, 'both backends stand at the same schema version');
    for (const table of ['host_metrics', 'imported_results']) {
      const columns = await query<{ name: string }>(
        'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [options.database, table],
      );
      const names = new Set(columns.map((c) => c.name));
      for (const f of PER_OP_FIGURES) assert.ok(names.has(f.column), `${table}.${f.column}`);
    }
    const collations = await query<{ collation: string; engine: string }>(
      'SELECT DISTINCT TABLE_COLLATION AS collation, ENGINE AS engine FROM information_schema.TABLES ' +
        'WHERE TABLE_SCHEMA = ?',
      [options.database],
    );
    assert.deepEqual(collations, [{ collation: 'utf8mb4_bin', engine: 'InnoDB' }]);
  });

  test('a migration cut off half way (DDL commits step by step) is finished by the next open', async () => {
    const options = await (await server()).freshDatabase();
    const { admin } = await server();
    await admin.query(`USE \`${options.database}\``);
    for (const step of [...VERSION_TABLE_STEPS, ...mysqlMigrations[0]!.steps.slice(0, 5)]) await admin.query(step);
    await withStore(options, async (store) => assert.ok((await store.upsertHost(hostInput())) > 0));
    assert.equal((await tablesOf(options.database)).length, 30);
    const [version] = await query<{ version: number }>(`SELECT version FROM \`${options.database}\`.schema_version`);
    assert.equal(version?.version, mysqlSchemaVersion);
  });

  test('a database at the baseline (18) gets the later migrations at its next open: lane tables, df', async () => {
    const options = await (await server()).freshDatabase();
    const { admin } = await server();
    await admin.query(`USE \`${options.database}\``);
    for (const step of [...VERSION_TABLE_STEPS, ...mysqlMigrations[0]!.steps]) await admin.query(step);
    await admin.query(`UPDATE schema_version SET version = ${mysqlMigrations[0]!.version}`);
    assert.equal((await tablesOf(options.database)).filter((t) => t.startsWith('instruction_')).length, 0);
    await withStore(options, async (store) => assert.deepEqual(await store.listInstructionEvents({}), []));
    assert.equal((await tablesOf(options.database)).filter((t) => t.startsWith('instruction_')).length, 5);
    const [version] = await query<{ version: number }>(`SELECT version FROM \`${options.database}\`.schema_version`);
    assert.equal(version?.version, mysqlLatestVersion);
    const [df] = await query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM information_schema.columns WHERE table_schema = '${options.database}' ` +
        `AND table_name = 'verdicts' AND column_name = 'log_se_df'`,
    );
    assert.equal(Number(df?.n), 1, "migration 21: verdicts keep their error's degrees of freedom");
  });

  test('text compares byte for byte, as in SQLite: tags differing in case are two releases', async () => {
    await withStore(await (await server()).freshDatabase(), async (store) => {
      const release = { upstream: 'mariadb', flavor: 'mariadb', commit: 'a'.repeat(40), version: '11.4.2' };
      const { added } = await store.recordReleases([
        { ...release, tag: 'mariadb-11.4.2', versionKey: '011.004.002' },
        { ...release, tag: 'MariaDB-11.4.2', versionKey: '011.004.002' },
      ]);
      assert.equal(added.length, 2);
      assert.deepEqual(
        (await store.findReleasesByTag('mariadb-11.4.2')).map((r) => r.tag),
        ['mariadb-11.4.2'],
      );
    });
  });

  test('the results mark moves on writes to results, from any connection, and not on the daemon status', async () => {
    const options = await (await server()).freshDatabase();
    const [store, other] = [await openStore(options), await openStore(options)];
    try {
      const start = await store.resultsMark();
      await store.listSessions({ limit: 10 });
      await store.setDaemonState('', { phase: 'building' });
      assert.equal(await store.resultsMark(), start, 'a read and the daemon status leave it');
      await store.upsertHost(hostInput());
      const afterOwn = await store.resultsMark();
      assert.notEqual(afterOwn, start, 'a host written through this store moves it');
      await other.upsertHost(hostInput({ fingerprintId: 'fp-other' }));
      assert.notEqual(await store.resultsMark(), afterOwn, 'a write through another connection moves it');
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
    await assert.rejects(store.resultsMark(), /closed/);
  });

  test('a done session is packed; a damaged pack is read from the samples, and packed again on open', async () => {
    const options = await (await server()).freshDatabase();
    const { id, figures } = await withStore(options, async (store) => {
      const id = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
      await store.addSample(id, sampleInput({ round: 1, role: 'candidate', qps: 90.25, cpuPerOp: 0.1 + 0.2 }));
      await store.addSample(id, sampleInput({ round: 1, role: 'baseline', qps: 100, latencyP95Ms: 2 / 3 }));
      await store.addSample(id, sampleInput({ round: 2, role: 'baseline', qps: 101.5, writeKBPerOp: 1e-300 }));
      const figures = plain(await store.sampleFigures(id));
      await store.finishSession(id);
      return { id, figures };
    });
    const packs = `\`${options.database}\`.session_figures`;
    assert.deepEqual(await query(`SELECT session_id FROM ${packs}`), [{ session_id: id }]);
    await query(`UPDATE ${packs} SET figures = SUBSTRING(figures, 9)`);
    await withStore({ ...options, readonly: true }, async (reader) =>
      assert.deepEqual(plain(await reader.sampleFigures(id)), figures, 'damaged: from the samples'),
    );
    await query(`DELETE FROM ${packs}`);
    await withStore(options, async (store) => assert.deepEqual(plain(await store.sampleFigures(id)), figures));
    assert.deepEqual(await query(`SELECT session_id FROM ${packs}`), [{ session_id: id }], 'packed on open');
  });

  test('a database of a newer qpswatch is refused and left as it was; an older one is not read read-only', async () => {
    const options = await (await server()).freshDatabase();
    await withStore({ ...options, readonly: false }, async () => undefined);
    const table = `\`${options.database}\`.schema_version`;
    await query(`UPDATE ${table} SET version = ?`, [mysqlSchemaVersion + 1]);
    await assert.rejects(openStore(options), SchemaTooNewError);
    assert.deepEqual(await query(`SELECT version FROM ${table}`), [{ version: mysqlSchemaVersion + 1 }]);
    const empty = await (await server()).freshDatabase();
    await assert.rejects(openStore({ ...empty, readonly: true }), SchemaTooOldError);
    assert.deepEqual(await tablesOf(empty.database), [], 'a read-only open made nothing');
  });

  test('a database with tables of something else is refused, untouched', async () => {
    const options = await (await server()).freshDatabase();
    await query(`CREATE TABLE \`${options.database}\`.wiki_pages (id INT PRIMARY KEY)`);
    await assert.rejects(openStore(options), (err: Error) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /has tables but no qpswatch schema_version/);
      return true;
    });
    assert.deepEqual(await tablesOf(options.database), ['wiki_pages']);
  });

  test('a wrong password is one line naming user, server and database, never the password', async () => {
    const options = await (await server()).freshDatabase();
    const wrong = 'Wrong-pw-93e1d';
    await assert.rejects(openStore({ ...options, password: wrong }), (err: Error) => {
      assert.ok(err instanceof StoreOpenError, String(err));
      assert.equal(err.message.split('\n').length, 1);
      assert.ok(!err.message.includes(wrong) && !err.message.includes(STORE_PASSWORD), err.message);
      assert.match(err.message, new RegExp(`mysql://qpsw_store@localhost/${options.database}`));
      assert.match(err.message, /refused user qpsw_store \(with a password\).*QPSWATCH_STORE_PASSWORD/);
      assert.equal(err.cause, undefined, 'the driver error is not kept');
      return true;
    });
    await assert.rejects(openStore({ ...options, database: 'qpsw_t_missing' }), /database qpsw_t_missing does not/);
  });

  test('the CLI uses the mysql store: import a CSV, export it back, the password only in the environment', async () => {
    const options = await (await server()).freshDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'qpsw-my-cli-'));
    try {
      const csv = join(dir, 'study.csv');
      writeFileSync(
        csv,
        'flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o\n' +
          'mariadb,10.11.6,oltp_read_only,16,12345.5,0.01,0.2,0,0,0.5\n',
      );
      const env = {
        QPSWATCH_STATE_DIR: join(dir, 'state'),
        QPSWATCH_STORE_BACKEND: 'mysql',
        QPSWATCH_STORE_SOCKET: options.socket!,
        QPSWATCH_STORE_USER: options.user,
        QPSWATCH_STORE_DATABASE: options.database,
        QPSWATCH_STORE_PASSWORD: STORE_PASSWORD,
      };
      const imported = await runCli(['import', csv], { env, cwd: dir });
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /imported 1 row\(s\) from study.csv: 1 new/);
      const exported = await runCli(['export'], { env, cwd: dir });
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stdout, /^mariadb,10\.11\.6,oltp_read_only,16,12345\.5,/m);
      assert.ok(!existsSync(join(dir, 'state', 'qpswatch.sqlite')), 'no SQLite store was made');
      const denied = await runCli(['export'], { env: { ...env, QPSWATCH_STORE_PASSWORD: 'Not-the-pw-5' }, cwd: dir });
      assert.notEqual(denied.code, 0);
      const lines = messageLines(denied.stderr);
      assert.ok(
        lines.some((l) => /cannot open store mysql:\/\/qpsw_store@localhost\//.test(l)),
        denied.stderr,
      );
      assert.ok(!denied.stderr.includes('Not-the-pw-5') && !denied.stdout.includes('Not-the-pw-5'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('store_url with a password is refused in one line that does not show it; without one it is read', () => {
    const env = { QPSWATCH_STORE_BACKEND: 'mysql', QPSWATCH_STORE_URL: 'mysql://qpsw:S3cret-pw@db.example:3307/res' };
    assert.throws(
      () => loadConfig({ env, cwd: '/' }),
      (err: Error) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.message.trim().split('\n').length, 1, err.message);
        assert.ok(!err.message.includes('S3cret-pw'), err.message);
        assert.match(err.message, /QPSWATCH_STORE_URL.*no password in it/);
        return true;
      },
    );
    const config = loadConfig({
      env: { ...env, QPSWATCH_STORE_URL: 'mysql://qpsw@db.example:3307/res', QPSWATCH_STORE_PASSWORD: 'pw' },
      cwd: '/',
    });
    assert.equal(config.store_url, 'mysql://qpsw@db.example:3307/res');
    assert.equal(config.store_password, 'pw');
  });
});

type Figures = Awaited<ReturnType<Store['sampleFigures']>>;
const plain = (figures: Figures) =>
  figures.map(({ figures: f, ...test }) => ({
    ...test,
    figures: Object.fromEntries(Object.entries(f).map(([k, v]) => [k, [...(v as Float64Array)]])),
  }));
