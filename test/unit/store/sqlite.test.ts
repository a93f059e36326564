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
import { migrate } from '../../../src/store/sqlite/migrate.js';
import { migrations } from '../../../src/store/sqlite/migrations.js';
import { storeContract } from './store-contract.js';
import { hostInput, sampleInput, sessionInput } from './store-inputs.js';
import { checkContract } from './check-contract.js';
import { queueContract } from './queue-contract.js';
import { calibrationContract } from './calibration-contract.js';

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
calibrationContract('sqlite', () => sqlite(freshPath()));

describe('sqlite backend', () => {
  test('the change mark stays while nothing is written, and moves on a write by this store or by another process', async () => {
    const path = freshPath();
    const [store, other] = [await sqlite(path), await sqlite(path)];
    try {
      const start = await store.changeMark();
      await store.listSessions({ limit: 10 });
      assert.equal(await store.changeMark(), start, 'a read leaves it');
      await store.upsertHost(hostInput());
      const afterOwn = await store.changeMark();
      assert.notEqual(afterOwn, start, 'a write through this store moves it');
      await other.upsertHost(hostInput({ fingerprintId: 'fp-other' }));
      assert.notEqual(await store.changeMark(), afterOwn, 'a write through another connection moves it');
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
    await assert.rejects(store.changeMark(), /closed/);
  });

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
      assert.deepEqual(tables, ['builds', 'calibrations', 'checks', 'daemon_state', 'db_counters', 'host_metrics', 'hosts', 'imported_results', 'outbox', 'regression_events', 'release_queue', 'releases', 'reruns', 'samples', 'session_quiet_host', 'sessions', 'triage', 'verdicts']);
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
    await assert.rejects(sqlite(path), (error: unknown) => error instanceof StoreOpenError && /no qpswatch schema/.test(error.message));
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
      assert.deepEqual(error.valid, ['sqlite']);
      assert.match(error.message, /"postgres".*sqlite/);
      return true;
    });
  });

  test('the default path lives in the state directory', () => {
    assert.equal(defaultSqlitePath('/var/lib/qpswatch'), '/var/lib/qpswatch/qpswatch.sqlite');
  });
});
