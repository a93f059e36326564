import type { SampleRole, TestId } from '../model/index.js';
import type { SessionState } from './session-types.js';

export class StoreError extends Error {
  override name = 'StoreError';
}

/** Input that would store garbage (NaN, Infinity, a negative rate, an empty name). Nothing was written. */
export class InvalidRecordError extends StoreError {
  override name = 'InvalidRecordError';
  constructor(
    readonly record:
      | 'host'
      | 'session'
      | 'sample'
      | 'query'
      | 'release'
      | 'build'
      | 'check'
      | 'triage'
      | 'message'
      | 'result'
      | 'queue'
      | 'daemon'
      | 'calibration'
      | 'bisection'
      | 'profile'
      | 'instructions',
    readonly field: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`${record} field "${field}" is ${describeValue(value)}: ${expected}; nothing was stored`);
  }
}

export class UnknownStoreBackendError extends StoreError {
  override name = 'UnknownStoreBackendError';
  constructor(
    readonly backend: string,
    readonly valid: readonly string[],
  ) {
    super(`store backend "${backend}" is not known; use one of: ${valid.join(', ')}`);
  }
}

/** A store (file or database) of a newer qpswatch: it is left untouched so that version can still read it. */
export class SchemaTooNewError extends StoreError {
  override name = 'SchemaTooNewError';
  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `store ${path} has schema version ${fileVersion} but this qpswatch knows up to ${knownVersion}; ` +
        'upgrade qpswatch or point it at another store (the store was not changed)',
    );
  }
}

/** A read-only open found a file from an older qpswatch: reading it needs a migration, which needs write access. */
export class SchemaTooOldError extends StoreError {
  override name = 'SchemaTooOldError';
  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `store ${path} has schema version ${fileVersion}, older than this ` +
        `qpswatch's ${knownVersion}, and this command may not ` +
        ('migrate it: restart the daemon (systemctl restart qpswatch) or run a ' +
          'command that writes, as a user who can write the store'),
    );
  }
}

/** The store could not be opened (not a database, not a qpswatch store, unwritable folder). */
export class StoreOpenError extends StoreError {
  override name = 'StoreOpenError';
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot open store ${path}: ${reason}`, options);
  }
}

/** A write failed because the store's disk is full; the transaction rolled back, so what was stored before stays. */
export class StoreDiskFullError extends StoreError {
  override name = 'StoreDiskFullError';
  constructor(
    readonly path: string,
    readonly folder: string,
    readonly freeBytes: number,
    options?: { cause?: unknown },
  ) {
    super(
      `the store ${path} cannot be written: the disk of ${folder} is full ` +
        `(${freeBytes} bytes free); free space there, or move state_dir, and ` +
        `run again (nothing stored before is lost)`,
      options,
    );
  }
}

/** The store cannot be written: a read-only mount, or a file or folder this user may not write. Nothing was changed. */
export class StoreReadOnlyError extends StoreError {
  override name = 'StoreReadOnlyError';
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`the store ${path} cannot be written: ${reason}`, options);
  }
}

export class StoreClosedError extends StoreError {
  override name = 'StoreClosedError';
  constructor(readonly operation: string) {
    super(`store is closed: cannot ${operation}; open a new store`);
  }
}

export class HostNotFoundError extends StoreError {
  override name = 'HostNotFoundError';
  constructor(readonly hostId: number) {
    super(`host ${hostId} is not in the store; register it with upsertHost first`);
  }
}

export class SessionNotFoundError extends StoreError {
  override name = 'SessionNotFoundError';
  constructor(readonly sessionId: number) {
    super(`session ${sessionId} is not in the store; list sessions to find its id`);
  }
}

/** An action that needs a running session was asked of one that has already ended. */
export class SessionStateError extends StoreError {
  override name = 'SessionStateError';
  constructor(
    readonly sessionId: number,
    readonly state: SessionState,
    readonly action: string,
  ) {
    super(`cannot ${action} session ${sessionId}: it is ${state}, not running; start a new session instead`);
  }
}

/** A counted run of the instructions lane the session already has (same side, test and repeat). */
export class DuplicateInstructionRunError extends StoreError {
  override name = 'DuplicateInstructionRunError';
  constructor(
    readonly sessionId: number,
    readonly key: TestId & { repeat: number; role: SampleRole },
  ) {
    super(
      `session ${sessionId} already has instruction run ${key.repeat} of ${key.role}, test "${key.test}", ` +
        `${key.threads} threads; each repeat is counted once per side`,
    );
  }
}

export class DuplicateSampleError extends StoreError {
  override name = 'DuplicateSampleError';
  constructor(
    readonly sessionId: number,
    readonly key: TestId & { round: number; role: SampleRole },
  ) {
    super(
      `session ${sessionId} already has a sample for round ${key.round}, ${key.role}, test "${key.test}", ` +
        `${key.threads} threads; each test runs once per round and side`,
    );
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value === undefined) return 'missing';
  if (typeof value === 'function') return 'a function';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** No release with that tag (or id) is known to the store. */
export class ReleaseNotFoundError extends StoreError {
  constructor(readonly tag: string) {
    super(
      `release ${JSON.stringify(tag)} is not known: run \`qpswatch discover\` to list the releases of each upstream`,
    );
  }
}

/** A build that is not in state building was asked to end. */
export class BuildNotFoundError extends StoreError {
  constructor(readonly buildId: number) {
    super(`build ${buildId} is not running: it ended already or does not exist`);
  }
}

/**
 * A check planned its events on what was open when it read them, and another check of the series (another host of a
 * fleet) changed them before it was recorded. Nothing was stored: the check plans again on what is open now.
 */
export class EventConflictError extends StoreError {
  override name = 'EventConflictError';
}

/** A check tried to close an event that is not open (closed meanwhile, or never existed). Nothing was stored. */
export class EventNotOpenError extends EventConflictError {
  override name = 'EventNotOpenError';
  constructor(readonly eventId: number) {
    super(`regression event ${eventId} is not open; nothing was stored`);
  }
}

/** A check tried to open an event for a test that has one open already (one event per test until it closes). */
export class EventAlreadyOpenError extends EventConflictError {
  override name = 'EventAlreadyOpenError';
  constructor(
    readonly upstream: string,
    readonly test: string,
    readonly threads: number,
  ) {
    super(
      `${upstream} already has an open event for ${test} at ${threads} thread(s), recorded by another check; ` +
        `nothing was stored`,
    );
  }
}

export class EventNotFoundError extends StoreError {
  override name = 'EventNotFoundError';
  constructor(readonly eventId: number) {
    super(`regression event ${eventId} does not exist; nothing was stored`);
  }
}

export class MessageNotFoundError extends StoreError {
  override name = 'MessageNotFoundError';
  constructor(readonly messageId: number) {
    super(`outbox message ${messageId} is not in the store`);
  }
}

/** An imported row is already in the store; `index` is its place in the rows given (0-based). Nothing was imported. */
export class DuplicateResultError extends StoreError {
  override name = 'DuplicateResultError';
  constructor(
    readonly index: number,
    readonly existing: TestId & {
      flavor: string;
      version: string;
      source: string;
      importedAt: string;
    },
  ) {
    const e = existing;
    super(
      `${e.flavor} ${e.version} ${e.test} with ${e.threads} threads is ` +
        `already in the store (imported from ${e.source} at ${e.importedAt}); ` +
        `nothing was imported`,
    );
  }
}

/** A queue move the queue's state machine does not allow (e.g. done -> benchmarking), or a release not queued. */
export class QueueStateError extends StoreError {
  constructor(
    readonly releaseId: number,
    readonly from: string | undefined,
    readonly to: string,
  ) {
    super(
      from === undefined
        ? `release ${releaseId} is not in the queue: enqueue it first`
        : `release ${releaseId} cannot move from ${from} to ${to} in the queue`,
    );
  }
}

/** A row another daemon of the fleet is working on, under a claim that has not lapsed: it is theirs to move. */
export class QueueClaimError extends StoreError {
  constructor(
    readonly releaseId: number,
    readonly slot: string,
    readonly claimedBy: string,
    readonly until: string,
  ) {
    super(
      `release ${releaseId} of queue slot ${JSON.stringify(slot)} is claimed by ${JSON.stringify(claimedBy)} ` +
        `until ${until}: only that daemon moves it before then`,
    );
  }
}
