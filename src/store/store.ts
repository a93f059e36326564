/**
 * The store: the only state shared between runs, so a killed daemon resumes from it. Records are plain data with
 * camelCase fields and ISO-8601 timestamps as strings. Each role is written once (roles/) on one small async
 * interface (sql.ts) that SQLite and MySQL both give, and both backends pass the same contract tests.
 *
 * `Store` is the sum of role interfaces, one per concern, each declared beside its records (*-types.ts). A consumer
 * names the roles it uses (`store: SessionStore & SampleStore`); only what opens and closes the store holds a `Store`.
 */

import type { BisectionStore } from './bisection-types.js';
import type { CalibrationStore } from './calibration-types.js';
import type { CheckStore } from './check-types.js';
import type { DaemonStateStore } from './daemon-state-types.js';
import type { HostStore } from './host-types.js';
import type { InstructionStore } from './instruction-types.js';
import type { OutboxStore } from './outbox-types.js';
import type { QueueStore } from './queue-types.js';
import type { ProfileStore } from './profile-types.js';
import type { QuietHostStore } from './quiet-host-types.js';
import type { ReleaseStore } from './release-types.js';
import type { ResultsStore } from './result-types.js';
import type { SampleStore } from './sample-types.js';
import type { SessionSideStore } from './session-side-types.js';
import type { SessionStore } from './session-types.js';

export interface Store
  extends
    HostStore,
    SessionStore,
    SampleStore,
    ReleaseStore,
    CheckStore,
    OutboxStore,
    ResultsStore,
    QueueStore,
    DaemonStateStore,
    QuietHostStore,
    CalibrationStore,
    BisectionStore,
    ProfileStore,
    InstructionStore,
    SessionSideStore {
  /** The backend's name, as given to openStore. */
  readonly backend: string;
  /**
   * A mark that moves whenever results change, in this process or another: a session is created or ends, a release,
   * check, verdict, regression event or host is written, changed or deleted. What is derived from them alone (the
   * per-release figures of /metrics) is kept while it stays the same. The daemon's own status, the queue, the outbox
   * and a running session's samples do not move it.
   */
  resultsMark(): Promise<string>;
  /** Idempotent; later calls to other methods reject with StoreClosedError. */
  close(): Promise<void>;
}
