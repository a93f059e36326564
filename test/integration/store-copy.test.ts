import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  openStore,
  StoreCopyRefusedError,
  type MysqlStoreOptions,
  type Store,
  type StoreOptions,
} from '../../src/store/index.js';
import { copyStore } from '../../src/store/index.js';
import { messageLines, runCli, type CliResult } from '../helpers/cli.js';
import { fillEveryTable, readBack, type FilledIds } from '../helpers/filled-store.js';
import { startResultsServer, STORE_PASSWORD, type ResultsServer } from '../helpers/results-db.js';
import { silentLog } from '../helpers/silent-log.js';
import { sessionInput } from '../unit/store/store-inputs.js';

/**
 * `qpswatch store copy` against this host's MariaDB: an SQLite store filled through the Store API is copied into
 * fresh databases by the real command, read back through the MySQL store, copied again (nothing changes), and
 * refused where it must be (another store's rows, schemas apart, bad input), each refusal leaving the target as it
 * was. Not timed, so it shares the host with other test files (host-share.ts).
 */
let server: ResultsServer;
const root = mkdtempSync(join(tmpdir(), 'qpswatch-store-copy-'));
const sqlitePath = join(root, 'state', 'qpswatch.sqlite');
let filled: FilledIds;

before(async () => {
  server = await startResultsServer('qpsw-cp-');
  filled = await withStore({ backend: 'sqlite', path: sqlitePath }, (store) => fillEveryTable(store));
});
after(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function withStore<T>(options: StoreOptions, body: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(options);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** The environment of a command whose config names the MySQL store `to` (socket, user, database, password). */
function mysqlEnv(to: MysqlStoreOptions, password = STORE_PASSWORD): Record<string, string> {
  return {
    QPSWATCH_STATE_DIR: join(root, 'state'),
    QPSWATCH_STORE_BACKEND: 'mysql',
    QPSWATCH_STORE_SOCKET: to.socket!,
    QPSWATCH_STORE_USER: to.user,
    QPSWATCH_STORE_DATABASE: to.database,
    QPSWATCH_STORE_PASSWORD: password,
  };
}

const copyCli = (to: MysqlStoreOptions, args: string[] = [], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(['store', 'copy', '--from', `sqlite:${sqlitePath}`, ...args], { env: { ...mysqlEnv(to), ...env }, cwd: root });

/** CHECKSUM TABLE of every table of the database: equal before and after means nothing was changed. */
async function checksums(database: string): Promise<Record<string, unknown>> {
  const [tables] = (await server.admin.query(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
    [database],
  )) as unknown as [Array<{ name: string }>];
  const sums: Record<string, unknown> = {};
  for (const { name } of tables) {
    const [rows] = (await server.admin.query(`CHECKSUM TABLE \`${database}\`.\`${name}\``)) as unknown as [
      Array<{ Checksum: unknown }>,
    ];
    sums[name] = rows[0]?.Checksum;
  }
  return sums;
}

const fileHash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The JSON log lines of stderr with their message. */
const logLines = (stderr: string, msg: string): Array<Record<string, unknown>> =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l['msg'] === msg);

/** The count lines of the printed table: table name to [source, target, copied, already there]. */
function countTable(stdout: string): Map<string, number[]> {
  const rows = stdout
    .split('\n')
    .map((l) => /^(\w[\w ]*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/.exec(l))
    .filter((m) => m !== null);
  return new Map(rows.map((m) => [m[1]!, m.slice(2).map(Number)]));
}

describe('qpswatch store copy', () => {
  test('copies every table; MySQL reads what SQLite holds; a second run changes nothing', async () => {
    const to = await server.freshDatabase();
    const hashBefore = fileHash(sqlitePath);
    const first = await copyCli(to);
    assert.equal(first.code, 0, first.stderr);
    const counts = countTable(first.stdout);
    for (const table of ['hosts', 'sessions', 'samples', 'host_metrics', 'db_counters', 'releases', 'builds'])
      assert.ok((counts.get(table)?.[0] ?? 0) > 0, `${table} has rows to copy: ${first.stdout}`);
    for (const table of ['checks', 'verdicts', 'regression_events', 'triage', 'reruns', 'outbox', 'imported_results'])
      assert.ok((counts.get(table)?.[0] ?? 0) > 0, `${table} has rows to copy`);
    for (const table of ['release_queue', 'daemon_state', 'session_quiet_host', 'calibrations', 'session_figures'])
      assert.ok((counts.get(table)?.[0] ?? 0) > 0, `${table} has rows to copy`);
    for (const table of ['bisections', 'profiles', 'session_sides'])
      assert.ok((counts.get(table)?.[0] ?? 0) > 0, `${table} rows`);
    for (const table of ['runs', 'functions', 'lanes', 'verdicts', 'events'])
      assert.ok((counts.get(`instruction_${table}`)?.[0] ?? 0) > 0, `instruction_${table} has rows to copy`);
    for (const [table, [source, target, copied, present]] of counts) {
      assert.equal(target, source, `${table}: target count equals source count`);
      assert.deepEqual([copied, present], [source, 0], table);
    }
    assert.ok(!counts.has('results_mark') && !counts.has('schema_version'), 'each store keeps its own bookkeeping');
    assert.match(first.stdout, /the target database was empty, its tables were made/);
    assert.match(first.stdout, /every row of the source is in the target, and the counts match/);
    // One progress line a table on stderr, through the logger.
    assert.equal(logLines(first.stderr, 'table copied').length, counts.size - 1);

    // Read back through each backend's Store API, the MySQL one as every command opens it.
    const fromSqlite = await withStore({ backend: 'sqlite', path: sqlitePath, readonly: true }, (s) =>
      readBack(s, filled),
    );
    const fromMysql = await withStore(to, (s) => readBack(s, filled));
    assert.deepEqual(fromMysql, fromSqlite);

    // The ids go on where the source's ended: a new session on the MySQL store takes the next one.
    const next = await withStore(to, async (s) => s.createSession(sessionInput(filled.hostIds[0]!)));
    assert.equal(next, Math.max(...filled.sessionIds) + 1);
    await server.admin.query(`DELETE FROM \`${to.database}\`.sessions WHERE id = ?`, [next]);

    const sums = await checksums(to.database);
    const again = await copyCli(to);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /nothing to copy: the target holds every row of the source already/);
    for (const [table, [source, target, copied, present]] of countTable(again.stdout))
      assert.deepEqual([target, copied, present], [source, 0, source], table);
    assert.equal(logLines(again.stderr, 'table already in the target').length, counts.size - 1);
    assert.deepEqual(await checksums(to.database), sums, 'the second run changed no row');

    // The SQLite file was only read, and a command that reads it still works.
    assert.equal(fileHash(sqlitePath), hashBefore, 'the SQLite file is byte for byte as before');
    assert.ok(!existsSync(`${sqlitePath}-wal`) || readFileSync(`${sqlitePath}-wal`).length === 0);
    const sqliteEnv = { QPSWATCH_STATE_DIR: join(root, 'state') };
    const sessions = await runCli(['sessions'], { env: sqliteEnv, cwd: root });
    assert.equal(sessions.code, 0, sessions.stderr);
    assert.match(sessions.stdout, new RegExp(`^\\s*${filled.sessionIds[0]}\\b`, 'm'));
    const exported = await runCli(['export'], { env: sqliteEnv, cwd: root });
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /^mariadb,10\.2\.30,point-query,1,5432\.1,/m);
    const status = await runCli(['status'], { env: sqliteEnv, cwd: root });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(fileHash(sqlitePath), hashBefore, 'and still after the read-only commands');
  });

  test('another row under an id is refused in one line naming table and id; nothing changes', async () => {
    const to = await server.freshDatabase();
    assert.equal((await copyCli(to)).code, 0);
    await server.admin.query(`UPDATE \`${to.database}\`.samples SET qps = qps + 1 WHERE id = 3`);
    // Rows the source lacks make a copy to do: a second sample of host metrics is gone too.
    await server.admin.query(`DELETE FROM \`${to.database}\`.db_counters WHERE sample_id = 5`);
    const sums = await checksums(to.database);
    const refused = await copyCli(to);
    assert.equal(refused.code, 2, refused.stderr);
    const lines = messageLines(refused.stderr);
    assert.equal(lines.length, 1, refused.stderr);
    assert.match(lines[0]!, /table samples.*row id 3 \(column qps differs\).*nothing was changed/);
    assert.deepEqual(await checksums(to.database), sums);
  });

  test('another store copied into a target that holds one is refused; a missing row is filled in', async () => {
    const to = await server.freshDatabase();
    assert.equal((await copyCli(to)).code, 0);
    const otherPath = join(root, 'other', 'qpswatch.sqlite');
    await withStore({ backend: 'sqlite', path: otherPath }, (store) => fillEveryTable(store, 'b'));
    const sums = await checksums(to.database);
    await assert.rejects(
      copyStore({ from: otherPath, to, log: silentLog }),
      (err: unknown) => err instanceof StoreCopyRefusedError && err.table === 'hosts' && /row id 1/.test(err.message),
    );
    assert.deepEqual(await checksums(to.database), sums);

    // Rows a target lacks (a copy cut short) are copied; the rows there are kept.
    await server.admin.query(`DELETE FROM \`${to.database}\`.db_counters WHERE sample_id = 5`);
    const report = await copyStore({ from: sqlitePath, to, log: silentLog, batchRows: 2 });
    const counters = report.tables.find((t) => t.table === 'db_counters')!;
    assert.deepEqual([counters.copied, counters.target], [3, counters.source]);
    assert.equal(report.copied, 3);
  });

  test('a unique key taken by a target row of another id is refused before anything is written', async () => {
    const to = await server.freshDatabase();
    await withStore(to, async () => undefined);
    // The source's first host under another id, as another store would have it.
    await server.admin.query(
      `INSERT INTO \`${to.database}\`.hosts (id, fingerprint_id, fingerprint, first_seen_at, last_seen_at) ` +
        `VALUES (11, ?, '{}', '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z')`,
      [filled.fingerprintId],
    );
    const sums = await checksums(to.database);
    const refused = await copyCli(to);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(messageLines(refused.stderr).join('\n'), /table hosts.*hosts_fingerprint_id.*row id 11/);
    assert.deepEqual(await checksums(to.database), sums);
  });

  test('a target of a newer or an older schema is refused in one line, and left as it is', async () => {
    for (const delta of [1, -1]) {
      const to = await server.freshDatabase();
      await withStore(to, async () => undefined);
      await server.admin.query(`UPDATE \`${to.database}\`.schema_version SET version = version + ?`, [delta]);
      const sums = await checksums(to.database);
      const refused = await copyCli(to);
      assert.equal(refused.code, 2, refused.stderr);
      const lines = messageLines(refused.stderr);
      assert.equal(lines.length, 1, refused.stderr);
      assert.match(lines[0]!, delta > 0 ? /has schema version \d+, the source \d+: copy with the newer/ : /migrate/);
      assert.deepEqual(await checksums(to.database), sums);
    }
  });

  test('the copy takes the columns the stores share: one only the target has is left to its default', async () => {
    const to = await server.freshDatabase();
    await withStore(to, async () => undefined);
    // As a later migration adds a column to the MySQL store: the copy needs no change for it.
    await server.admin.query(`ALTER TABLE \`${to.database}\`.release_queue ADD COLUMN note TEXT NULL`);
    await server.admin.query(`ALTER TABLE \`${to.database}\`.outbox ADD COLUMN tries BIGINT NOT NULL DEFAULT 0`);
    const copied = await copyCli(to);
    assert.equal(copied.code, 0, copied.stderr);
    const [rows] = (await server.admin.query(`SELECT note FROM \`${to.database}\`.release_queue`)) as unknown as [
      Array<{ note: unknown }>,
    ];
    assert.ok(rows.length > 0 && rows.every((r) => r.note === null));
  });

  test('a source column with data the target has no column for is refused, naming it', async () => {
    const to = await server.freshDatabase();
    await withStore(to, async () => undefined);
    await server.admin.query(`ALTER TABLE \`${to.database}\`.outbox DROP COLUMN detail`);
    const refused = await copyCli(to);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(messageLines(refused.stderr).join('\n'), /no column outbox\.detail for the values of its 1 rows/);
    const [rows] = (await server.admin.query(`SELECT COUNT(*) AS n FROM \`${to.database}\`.hosts`)) as unknown as [
      Array<{ n: number }>,
    ];
    assert.equal(Number(rows[0]?.n), 0);
  });

  test('bad input: one line naming the thing, the value and the fix, exit 2, no password printed', async () => {
    const to = await server.freshDatabase();
    const cases: Array<{ args: string[]; env?: Record<string, string>; line: RegExp }> = [
      { args: ['--to', 'postgres://qpsw@db/results'], line: /--to "postgres:\/\/qpsw@db\/results": unknown scheme/ },
      { args: ['--to', 'mysql://qpsw:Hunter2-pw@db/results'], line: /holds a password.*QPSWATCH_STORE_PASSWORD/ },
      { args: ['--to', 'mysql://db/results'], line: /--to "mysql:\/\/db\/results": expected mysql:\/\/USER@HOST/ },
      { args: ['--from', join(root, 'x.sqlite')], line: /--from ".*x\.sqlite": unknown scheme; expected sqlite:PATH/ },
      {
        args: ['--from', 'sqlite:/nonexistent/q.sqlite'],
        line: /cannot open store \/nonexistent\/q\.sqlite: .*no such/,
      },
      { args: ['--to', 'mysql://qpsw@127.0.0.1:1/results'], line: /127\.0\.0\.1:1\/results: no server answers there/ },
      { args: [], env: { QPSWATCH_STORE_PASSWORD: 'Not-the-pw-5' }, line: /refused user qpsw_store \(with a passw/ },
    ];
    for (const c of cases) {
      // --from last wins, so a case's own --from replaces the default one.
      const result = await copyCli(to, c.args, c.env);
      assert.equal(result.code, 2, `${c.args.join(' ')}: ${result.stderr}`);
      const lines = messageLines(result.stderr).filter((l) => !/^(Usage|  |$)/.test(l));
      assert.match(lines[0] ?? '', c.line, result.stderr);
      for (const secret of ['Hunter2-pw', 'Not-the-pw-5', STORE_PASSWORD])
        assert.ok(!result.stderr.includes(secret) && !result.stdout.includes(secret), `${secret} printed`);
    }
    assert.deepEqual(await checksums(to.database), {}, 'no table was made by a refused copy');
  });
});
