import type Database from 'better-sqlite3';
import type { Store } from '../store.js';
import { Bisections } from '../roles/bisections.js';
import { Calibrations } from '../roles/calibrations.js';
import { DaemonState } from '../roles/daemon-state.js';
import { Hosts } from '../roles/hosts.js';
import { Instructions } from '../roles/instructions.js';
import { Outbox } from '../roles/outbox.js';
import { ImportedResults } from '../roles/imported-results.js';
import { Profiles } from '../roles/profiles.js';
import { Queue } from '../roles/queue.js';
import { QuietHosts } from '../roles/quiet-hosts.js';
import { Releases } from '../roles/releases.js';
import { ResultsMark } from '../roles/results-mark.js';
import { SampleFigures } from '../roles/sample-figures.js';
import { Samples } from '../roles/samples.js';
import { Sessions } from '../roles/sessions.js';
import { SqliteChecks } from './checks.js';
import { SqliteConnection } from './connection.js';

/**
 * The SQLite store: one connection (an opened, migrated database) and one object per concern, each implementing its
 * role of `Store` on it (hosts.ts, sessions.ts, ...). This file only puts them together; `Store` checks that every
 * method of every role is there.
 */
export function sqliteStore(db: Database.Database): Store {
  const conn = new SqliteConnection(db);
  return {
    backend: 'sqlite',
    ...methodsOf(new Hosts(conn.sql)),
    ...methodsOf(new Sessions(conn.sql)),
    ...methodsOf(new Samples(conn.sql)),
    ...methodsOf(new SampleFigures(conn.sql)),
    ...methodsOf(new Releases(conn.sql)),
    ...methodsOf(new SqliteChecks(conn)),
    ...methodsOf(new Outbox(conn.sql)),
    ...methodsOf(new ImportedResults(conn.sql)),
    ...methodsOf(new Queue(conn.sql)),
    ...methodsOf(new DaemonState(conn.sql)),
    ...methodsOf(new QuietHosts(conn.sql)),
    ...methodsOf(new Calibrations(conn.sql)),
    ...methodsOf(new Bisections(conn.sql)),
    ...methodsOf(new Profiles(conn.sql)),
    ...methodsOf(new Instructions(conn.sql)),
    ...methodsOf(new ResultsMark(conn.sql)),
    close: async () => conn.close(),
  };
}

/** The public methods of a role's implementation, bound to it (a spread alone would leave a class's methods behind). */
function methodsOf<T extends object>(impl: T): { [K in keyof T]: T[K] } {
  const methods: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(impl))) {
    const value: unknown = Reflect.get(impl, name);
    if (name !== 'constructor' && typeof value === 'function') methods[name] = value.bind(impl);
  }
  return methods as { [K in keyof T]: T[K] };
}
