import type { SqlDatabase } from '../sql.js';
import type { Store } from '../store.js';
import { Bisections } from './bisections.js';
import { Calibrations } from './calibrations.js';
import { Checks } from './checks.js';
import { DaemonState } from './daemon-state.js';
import { Hosts } from './hosts.js';
import { ImportedResults } from './imported-results.js';
import { Instructions } from './instructions.js';
import { Outbox } from './outbox.js';
import { Profiles } from './profiles.js';
import { Queue } from './queue.js';
import { QuietHosts } from './quiet-hosts.js';
import { Releases } from './releases.js';
import { ResultsMark } from './results-mark.js';
import { SampleFigures } from './sample-figures.js';
import { Samples } from './samples.js';
import { SessionSides } from './session-sides.js';
import { Sessions } from './sessions.js';

/**
 * A store on either backend: one object per role, each on the backend's opened, migrated database. This only puts
 * them together; `Store` checks that every method of every role is there.
 */
export function storeOfRoles(backend: 'sqlite' | 'mysql', db: SqlDatabase, close: () => Promise<void>): Store {
  return {
    backend,
    ...methodsOf(new Hosts(db)),
    ...methodsOf(new Sessions(db)),
    ...methodsOf(new Samples(db)),
    ...methodsOf(new SampleFigures(db)),
    ...methodsOf(new Releases(db)),
    ...methodsOf(new Checks(db)),
    ...methodsOf(new Outbox(db)),
    ...methodsOf(new ImportedResults(db)),
    ...methodsOf(new Queue(db)),
    ...methodsOf(new DaemonState(db)),
    ...methodsOf(new QuietHosts(db)),
    ...methodsOf(new Calibrations(db)),
    ...methodsOf(new Bisections(db)),
    ...methodsOf(new Profiles(db)),
    ...methodsOf(new Instructions(db)),
    ...methodsOf(new SessionSides(db)),
    ...methodsOf(new ResultsMark(db)),
    close,
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
