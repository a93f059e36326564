import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import {
  SchemaTooNewError,
  StoreOpenError,
  UnknownStoreBackendError,
  defaultSqlitePath,
  openStore,
  sqliteSchemaVersion,
  type StoreOptions,
} from '../../../src/store/index.js';
import { SqliteConnection } from '../../../src/store/sqlite/connection.js';
import { migrate } from '../../../src/store/sqlite/migrate.js';
import { migrations } from '../../../src/store/sqlite/migrations.js';
import { storeContract } from './store-contract.js';
import { hostInput, sampleInput, sessionInput } from './store-inputs.js';
import { checkContract, checkInput, doneSession, releases, verdict } from './check-contract.js';
import { queueContract } from './queue-contract.js';
import { calibrationContract } from './calibration-contract.js';
import { bisectionContract } from './bisection-contract.js';
import { profileContract } from './profile-contract.js';
import { sessionSidesContract } from './session-sides-contract.js';
import { instructionContract } from './instruction-contract.js';

const root = mkdtempSync(join(tmpdir(), 'qpswatch-store-'));
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A path in a new, existing folder (the folder-creating case has its own test). */
function freshPath(): string {
  const dir = join(root, `store-${++counter}`);
  mkdirSync(dir);
  return join(dir, 'qpswatch.sqlite');
}
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const sqlite = (path: string) => openStore({ backend: 'sqlite', path });

storeContract('sqlite', () => sqlite(freshPath()));
checkContract('sqlite', () => sqlite(freshPath()));
queueContract('sqlite', () => sqlite(freshPath()));
bisectionContract('sqlite', () => sqlite(freshPath()));
calibrationContract('sqlite', () => sqlite(freshPath()));
profileContract('sqlite', () => sqlite(freshPath()));
instructionContract('sqlite', () => sqlite(freshPath()));
sessionSidesContract('sqlite', () => sqlite(freshPath()));

describe('sqlite backend', () => {
  describe('figure packs of done sessions', () => {
    /** A done session with two sides and two tests, its samples written out of order of side and test. */
    async function doneSession(path: string): Promise<{ id: number; figures: unknown }> {
      const store = await sqlite(path);
      try {
        const id = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
        const samples = [
          sampleInput({ round: 1, role: 'candidate', qps: 90.25, cpuPerOp: 0.1 + 0.2 }),
          sampleInput({ round: 1, role: 'baseline', qps: 100, latencyP95Ms: 2 / 3 }),
          sampleInput({ round: 1, role: 'baseline', test: 'other', threads: 8, qps: 7, writeKBPerOp: 1e-300 }),
          sampleInput({ round: 2, role: 'baseline', qps: 101.5 }),
        ];
        for (const sample of samples) await store.addSample(id, sample);
        const fromRows = plain(await store.sampleFigures(id));
        await store.finishSession(id);
        return { id, figures: fromRows };
      } finally {
        await store.close();
      }
    }
    const plain = (figures: Awaited<ReturnType<Awaited<ReturnType<typeof sqlite>>['sampleFigures']>>) =>
      figures.map(({ figures: f, ...test }) => ({
        ...test,
        figures: Object.fromEntries(Object.entries(f).map(([k, v]) => [k, [...v]])),
      }));

    test(
      'finishing a session packs its figures in one row; reading the pack ' + 'gives exactly what its samples give',
      async () => {
        const path = freshPath();
        const { id, figures } = await doneSession(path);
        const db = new Database(path, { readonly: true });
        const packs = db.prepare('SELECT session_id FROM session_figures').pluck().all();
        db.close();
        assert.deepEqual(packs, [id]);
        const store = await sqlite(path);
        try {
          assert.deepEqual(plain(await store.sampleFigures(id)), figures);
        } finally {
          await store.close();
        }
      },
    );

    test(
      'a session without a pack, or with a pack of other fields, another byte ' +
        'order or a damaged one, is read from its samples',
      async () => {
        const changes = [
          'DELETE FROM session_figures',
          `UPDATE session_figures SET layout = json_set(layout, '$.fields[0]', 'tps')`,
          `UPDATE session_figures SET layout = json_set(layout, '$.byteOrder', ` +
            `CASE json_extract(layout, '$.byteOrder') WHEN 'LE' THEN 'BE' ELSE 'LE' ` +
            `END)`,
          `UPDATE session_figures SET layout = '{"fields": ['`,
          `UPDATE session_figures SET layout = json_set(layout, '$.groups[0][3]', -1)`,
          'UPDATE session_figures SET figures = substr(figures, 9)',
        ];
        for (const change of changes) {
          const path = freshPath();
          const { id, figures } = await doneSession(path);
          const db = new Database(path);
          db.exec(change);
          db.close();
          // Read-only: a store opened so does not pack at open, so this reads what the damaged or missing pack leaves.
          const reader = await openStore({ backend: 'sqlite', path, readonly: true });
          try {
            assert.deepEqual(plain(await reader.sampleFigures(id)), figures, change);
          } finally {
            await reader.close();
          }
        }
      },
    );

    test('opening a store for writing packs the done sessions that lack a usable pack', async () => {
      const path = freshPath();
      const { id } = await doneSession(path);
      const db = new Database(path);
      db.exec('DELETE FROM session_figures');
      db.close();
      await (await sqlite(path)).close();
      const check = new Database(path, { readonly: true });
      assert.deepEqual(check.prepare('SELECT session_id FROM session_figures').pluck().all(), [id]);
      check.close();
    });

    test('a pack that fails leaves the session done, read from its samples, and packed at the next open', async () => {
      const path = freshPath();
      let store = await sqlite(path);
      const id = await store.createSession(sessionInput(await store.upsertHost(hostInput())));
      await store.addSample(id, sampleInput({ qps: 123.5 }));
      // A trigger stands in for a full disk or a bug: the pack's insert fails inside the session's end.
      const db = new Database(path);
      db.exec(`CREATE TRIGGER no_packs BEFORE INSERT ON session_figures BEGIN SELECT RAISE(ABORT, 'no room'); END`);
      await store.finishSession(id);
      assert.equal((await store.getSession(id))?.state, 'done');
      assert.deepEqual([...((await store.sampleFigures(id))[0]?.figures.qps ?? [])], [123.5]);
      assert.equal(db.prepare('SELECT count(*) FROM session_figures').pluck().get(), 0);
      await store.close();
      db.exec('DROP TRIGGER no_packs');
      db.close();
      store = await sqlite(path);
      await store.close();
      const check = new Database(path, { readonly: true });
      assert.deepEqual(check.prepare('SELECT session_id FROM session_figures').pluck().all(), [id]);
      check.close();
    });

    test('a failed or interrupted session gets no pack', async () => {
      const path = freshPath();
      const store = await sqlite(path);
      const hostId = await store.upsertHost(hostInput());
      const failed = await store.createSession(sessionInput(hostId));
      await store.addSample(failed, sampleInput());
      await store.failSession(failed, 'sysbench exited with code 1');
      await store.interruptSession(await store.createSession(sessionInput(hostId)), 'stopped by SIGTERM');
      await store.close();
      const db = new Database(path, { readonly: true });
      assert.equal(db.prepare('SELECT count(*) FROM session_figures').pluck().get(), 0);
      db.close();
    });
  });

  test(
    'the results mark moves on a write of results by this store or another ' + 'process, not on status or reads',
    async () => {
      const path = freshPath();
      const [store, other] = [await sqlite(path), await sqlite(path)];
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
    },
  );

  test('creates its folder and opens in WAL mode at the latest schema version', async () => {
    const path = join(root, 'deep', 'er', 'state', 'qpswatch.sqlite');
    const store = await sqlite(path);
    await store.close();
    const db = new Database(path, { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('user_version', { simple: true }), sqliteSchemaVersion);
    } finally {
      db.close();
    }
  });

  test('migrates an empty file to every table', async () => {
    const path = freshPath();
    writeFileSync(path, '');
    const store = await sqlite(path);
    await store.close();
    const db = new Database(path, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      assert.deepEqual(tables, [
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
        'session_figures',
        'session_quiet_host',
        'session_sides',
        'sessions',
        'triage',
        'verdicts',
      ]);
      assert.equal(db.pragma('user_version', { simple: true }), sqliteSchemaVersion);
    } finally {
      db.close();
    }
  });

  test('migrations are numbered 1, 2, 3... with no gap', () => {
    assert.deepEqual(
      migrations.map((m) => m.version),
      migrations.map((_, i) => i + 1),
    );
    assert.equal(sqliteSchemaVersion, migrations.length);
  });

  test('a migration that fails leaves the file at the previous version, with nothing half-made', () => {
    const path = freshPath();
    const db = new Database(join(root, `m-${++counter}.sqlite`));
    try {
      const steps = [
        { version: 1, name: 'one', sql: 'CREATE TABLE one (a INTEGER)' },
        { version: 2, name: 'broken', sql: 'CREATE TABLE two (a INTEGER); INSERT INTO missing VALUES (1)' },
      ];
      assert.throws(() => migrate(db, path, steps), /no such table: missing/);
      assert.equal(db.pragma('user_version', { simple: true }), 1);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      assert.deepEqual(tables, ['one']);
      assert.equal(migrate(db, path, steps.slice(0, 1)), 1);
    } finally {
      db.close();
    }
  });

  test('migration 13 makes every event stored before it a regression', async () => {
    const path = freshPath();
    const store = await sqlite(path);
    try {
      const ids = await releases(store, '10.11.2', '10.11.3');
      const sessionId = await doneSession(store, '10.11.2', '10.11.3');
      await store.recordCheck(
        checkInput(sessionId, ids.get('10.11.3')!, ids.get('10.11.2')!, {
          outcome: 'regression',
          verdicts: [verdict('update-index', 'regression', 0.5)],
          openEvents: [{ test: 'update-index', threads: 1, relativeQps: 0.5 }],
        }),
      );
    } finally {
      await store.close();
    }
    const db = new Database(path);
    db.exec('ALTER TABLE regression_events DROP COLUMN kind');
    // Nor the later migrations' tables, which are made again.
    db.exec('DROP TABLE profiles');
    db.exec('ALTER TABLE calibrations DROP COLUMN instance_spread');
    db.exec('ALTER TABLE verdicts DROP COLUMN log_se_df');
    db.pragma('user_version = 12');
    db.close();
    const again = await sqlite(path);
    try {
      assert.deepEqual(
        (await again.listEvents({})).map((e) => [e.test, e.kind]),
        [['update-index', 'regression']],
      );
    } finally {
      await again.close();
    }
  });

  test(
    'migration 12 keeps the verdicts and their order, and judges every ' +
      'stored check again by the rule of last good',
    async () => {
      const path = freshPath();
      const store = await sqlite(path);
      let undecided = 0;
      let decided = 0;
      try {
        const ids = await releases(store, '10.11.2', '10.11.3', '10.11.4');
        undecided = await doneSession(store, '10.11.2', '10.11.3');
        // Conclusive under the old rule: unstable, but with its estimate over the threshold.
        const kinds = [
          verdict('update-index', 'ok', 1),
          verdict('point-query', 'unstable', 0.97),
          verdict('scan', 'slower', 0.962),
        ];
        await store.recordCheck(checkInput(undecided, ids.get('10.11.3')!, ids.get('10.11.2')!, { verdicts: kinds }));
        decided = await doneSession(store, '10.11.2', '10.11.4');
        await store.recordCheck(
          checkInput(decided, ids.get('10.11.4')!, ids.get('10.11.2')!, {
            verdicts: [verdict('update-index', 'improvement', 1.2), verdict('point-query', 'ok', 1)],
          }),
        );
      } finally {
        await store.close();
      }
      // The file as it was before migration 12: conclusive as the old rule left it (the table is already the new one,
      // which the step makes again the same way; the contract tests store a slower verdict in a fresh file).
      const db = new Database(path);
      db.exec('UPDATE checks SET conclusive = 1');
      // Migration 13's column did not exist at version 11 either.
      db.exec('ALTER TABLE regression_events DROP COLUMN kind');
      db.exec('DROP TABLE profiles');
      db.exec('ALTER TABLE calibrations DROP COLUMN instance_spread');
      db.exec('ALTER TABLE verdicts DROP COLUMN log_se_df');
      db.pragma('user_version = 11');
      db.close();
      const again = await sqlite(path);
      try {
        const checks = new Map((await again.listChecks('mariadb-10.11')).map((c) => [c.sessionId, c.conclusive]));
        assert.deepEqual([checks.get(undecided), checks.get(decided)], [false, true]);
        assert.deepEqual(
          (await again.verdictsOfSession(undecided)).map((v) => [v.test, v.kind, v.relativeQps]),
          [
            ['update-index', 'ok', 1],
            ['point-query', 'unstable', 0.97],
            ['scan', 'slower', 0.962],
          ],
        );
      } finally {
        await again.close();
      }
      const after = new Database(path, { readonly: true });
      try {
        const triggers = after
          .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'verdicts' ORDER BY name")
          .pluck()
          .all();
        assert.deepEqual(
          triggers,
          ['results_mark_verdicts_delete', 'results_mark_verdicts_insert', 'results_mark_verdicts_update'],
          'the results mark still moves on writes to verdicts',
        );
      } finally {
        after.close();
      }
    },
  );

  describe('figure columns from the figure table', () => {
    const columnsOf = (db: Database.Database, table: string): string[] =>
      (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name);

    test('a figure the store lacks gets its columns on the next open; older rows lack the figure', async () => {
      const path = freshPath();
      const first = await sqlite(path);
      const hostId = await first.upsertHost(hostInput());
      const sessionId = await first.createSession(sessionInput(hostId));
      await first.addSample(sessionId, sampleInput());
      await first.finishSession(sessionId);
      await first.close();
      // As a store written before the figure was in the table: without its columns, packed without the figure.
      const db = new Database(path);
      db.exec('DELETE FROM session_figures');
      for (const table of ['host_metrics', 'imported_results'])
        db.exec(`ALTER TABLE ${table} DROP COLUMN cpu_micros_per_op`);
      db.close();
      const version = sha256(path);
      await assert.rejects(
        openStore({ backend: 'sqlite', path, readonly: true }),
        (error: unknown) =>
          error instanceof StoreOpenError &&
          error.message.includes('host_metrics.cpu_micros_per_op') &&
          /run a command that writes/.test(error.message),
      );
      assert.equal(sha256(path), version, 'a read-only open leaves the file as it was');
      const second = await sqlite(path);
      try {
        const [sample] = await second.completedSamples(sessionId);
        assert.equal(sample?.cpuMicrosPerOp, undefined, 'a row older than the figure lacks it');
        assert.equal(sample?.cpuPerOp, 0.0061);
        const [figures] = await second.sampleFigures(sessionId);
        assert.ok(Number.isNaN(figures?.figures.cpuMicrosPerOp?.[0]), 'NaN in the packed figures');
      } finally {
        await second.close();
      }
      const check = new Database(path, { readonly: true });
      for (const table of ['host_metrics', 'imported_results'])
        assert.ok(columnsOf(check, table).includes('cpu_micros_per_op'), `${table} has the column again`);
      check.close();
      await (await sqlite(path)).close();
    });

    test('a store with every figure column is left as it is', async () => {
      const path = freshPath();
      await (await sqlite(path)).close();
      const before = new Database(path, { readonly: true });
      const schema = before.prepare('SELECT sql FROM sqlite_master ORDER BY name').pluck().all();
      before.close();
      await (await sqlite(path)).close();
      const afterOpen = new Database(path, { readonly: true });
      assert.deepEqual(afterOpen.prepare('SELECT sql FROM sqlite_master ORDER BY name').pluck().all(), schema);
      afterOpen.close();
    });
  });

  test('reopening keeps what was written and does not migrate again', async () => {
    const path = freshPath();
    const first = await sqlite(path);
    const hostId = await first.upsertHost(hostInput());
    const sessionId = await first.createSession(sessionInput(hostId));
    await first.addSample(sessionId, sampleInput());
    await first.finishSession(sessionId);
    await first.close();
    const second = await sqlite(path);
    try {
      assert.equal((await second.getSession(sessionId))?.state, 'done');
      assert.equal((await second.completedSamples(sessionId)).length, 1);
    } finally {
      await second.close();
    }
  });

  test('a second connection reads what the first commits while both are open', async () => {
    const path = freshPath();
    const writer = await sqlite(path);
    const reader = await sqlite(path);
    try {
      const sessionId = await writer.createSession(sessionInput(await writer.upsertHost(hostInput())));
      await writer.addSample(sessionId, sampleInput());
      assert.equal((await reader.samplesForSession(sessionId)).length, 1);
      await reader.addSample(sessionId, sampleInput({ round: 2 }));
      assert.equal((await writer.samplesForSession(sessionId)).length, 2);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });

  test('refuses a file from a newer schema and leaves it untouched', async () => {
    const path = freshPath();
    await sqlite(path).then((s) => s.close());
    const newer = new Database(path);
    newer.pragma('journal_mode = DELETE');
    newer.pragma(`user_version = ${sqliteSchemaVersion + 1}`);
    newer.close();
    const before = sha256(path);
    await assert.rejects(sqlite(path), (error: unknown) => {
      assert.ok(error instanceof SchemaTooNewError, String(error));
      assert.equal(error.fileVersion, sqliteSchemaVersion + 1);
      assert.equal(error.knownVersion, sqliteSchemaVersion);
      assert.match(error.message, /upgrade qpswatch/);
      return true;
    });
    assert.equal(sha256(path), before);
    assert.equal(existsSync(`${path}-wal`), false);
  });

  test('refuses a file that is not an SQLite database, and leaves it untouched', async () => {
    const path = freshPath();
    writeFileSync(path, 'this is a config file, not a database\n'.repeat(200));
    const before = sha256(path);
    await assert.rejects(sqlite(path), (error: unknown) => error instanceof StoreOpenError && error.path === path);
    assert.equal(sha256(path), before);
  });

  test('refuses an SQLite database that belongs to something else', async () => {
    const path = freshPath();
    const other = new Database(path);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    other.close();
    await assert.rejects(
      sqlite(path),
      (error: unknown) => error instanceof StoreOpenError && /no qpswatch schema/.test(error.message),
    );
  });

  test('a folder that cannot be created is named in the error', async () => {
    const file = freshPath();
    writeFileSync(file, 'a file, not a folder\n');
    const path = join(file, 'state', 'qpswatch.sqlite');
    await assert.rejects(sqlite(path), (error: unknown) => {
      assert.ok(error instanceof StoreOpenError, String(error));
      assert.equal(error.path, path);
      assert.match(error.message, /ENOTDIR/);
      return true;
    });
  });

  test('an unknown backend name lists the valid ones', async () => {
    const options = { backend: 'postgres', path: freshPath() } as unknown as StoreOptions;
    await assert.rejects(openStore(options), (error: unknown) => {
      assert.ok(error instanceof UnknownStoreBackendError);
      assert.equal(error.backend, 'postgres');
      assert.deepEqual(error.valid, ['sqlite', 'mysql']);
      assert.match(error.message, /"postgres".*sqlite/);
      return true;
    });
  });

  test('migration 16 keeps the bisections stored before it, with no event and no error', async () => {
    const path = freshPath();
    const db = new Database(path);
    migrate(db, path, migrations.slice(0, 15));
    db.exec(`INSERT INTO releases (id, upstream, flavor, tag, commit_sha, version, version_key, first_seen_at)
      VALUES (1, 'demo', 'mariadb', 'mariadb-1', '${'a'.repeat(40)}', '1', '1', '2026-12-01T00:00:00.000Z')`);
    db.exec(`INSERT INTO bisections (release_id, good_release_id, build_profile, tests, commit_count, outcome,
        first_bad_commit, first_bad_subject, first_bad_author, builds, started_at, ended_at)
      VALUES (1, 1, 'demo', '["insert"]', 3, 'found', '${'b'.repeat(40)}', 'slow', 'me', 2,
        '2026-12-01T00:00:00.000Z', '2026-12-01T01:00:00.000Z')`);
    db.close();
    const store = await sqlite(path);
    try {
      const [kept] = await store.listBisections();
      assert.deepEqual(
        [kept?.outcome, kept?.firstBad?.subject, kept?.eventId, kept?.error],
        ['found', 'slow', undefined, undefined],
      );
    } finally {
      await store.close();
    }
  });

  test('the default path lives in the state directory', () => {
    assert.equal(defaultSqlitePath('/var/lib/qpswatch'), '/var/lib/qpswatch/qpswatch.sqlite');
  });
});

describe('sqlite connection: transactions take turns', () => {
  // A role written once runs its transaction as an async body, which awaits between statements: a write of another
  // role asked for meanwhile must neither run inside it nor be undone by its rollback.
  test('a write asked for while an async transaction is open runs after it; its rollback keeps it', async () => {
    const db = new Database(':memory:');
    const conn = new SqliteConnection(db);
    try {
      db.exec('CREATE TABLE t (name TEXT NOT NULL)');
      const order: string[] = [];
      const failing = conn.sql.write('write and fail', async (tx) => {
        await tx.run('INSERT INTO t (name) VALUES (?)', ['undone']);
        order.push('async body wrote');
        // A whole turn of the event loop: anything queued may run now, unless it waits for its turn.
        await new Promise((resolve) => setImmediate(resolve));
        order.push('async body fails');
        throw new Error('the body fails');
      });
      const other = conn.sql.write('another role writes', async (tx) => {
        order.push('second write');
        await tx.run('INSERT INTO t (name) VALUES (?)', ['kept']);
      });
      await assert.rejects(failing, /the body fails/);
      await other;
      assert.deepEqual(order, ['async body wrote', 'async body fails', 'second write']);
      assert.deepEqual(db.prepare('SELECT name FROM t').pluck().all(), ['kept']);
      assert.equal(db.inTransaction, false);
      const read = await conn.sql.read('read', (tx) => tx.rows<{ name: string }>('SELECT name FROM t'));
      assert.deepEqual(read, [{ name: 'kept' }]);
    } finally {
      conn.close();
    }
  });
});
