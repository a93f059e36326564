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
import { MysqlChecks } from './checks.js';
import type { MysqlConnection } from './connection.js';

/**
 * The MySQL / MariaDB store: one connection pool (an opened, migrated database) and one object per concern, each
 * implementing its role of `Store` on it, as sqlite-store.ts does for SQLite. `Store` checks that every method of
 * every role is there.
 */
export function mysqlStore(conn: MysqlConnection): Store {
  return {
    backend: 'mysql',
    ...methodsOf(new Hosts(conn)),
    ...methodsOf(new Sessions(conn)),
    ...methodsOf(new Samples(conn)),
    ...methodsOf(new SampleFigures(conn)),
    ...methodsOf(new Releases(conn)),
    ...methodsOf(new MysqlChecks(conn)),
    ...methodsOf(new Outbox(conn)),
    ...methodsOf(new ImportedResults(conn)),
    ...methodsOf(new Queue(conn)),
    ...methodsOf(new DaemonState(conn)),
    ...methodsOf(new QuietHosts(conn)),
    ...methodsOf(new Calibrations(conn)),
    ...methodsOf(new Bisections(conn)),
    ...methodsOf(new Profiles(conn)),
    ...methodsOf(new Instructions(conn)),
    ...methodsOf(new ResultsMark(conn)),
    close: () => conn.close(),
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
