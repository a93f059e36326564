export type { Store } from './store.js';
/** The roles of Store and their records, one file per concern. */
export type * from './host-types.js';
export type * from './session-types.js';
export type * from './session-side-types.js';
export type * from './sample-types.js';
export type * from './release-types.js';
export type * from './check-types.js';
export type * from './outbox-types.js';
export type * from './result-types.js';
export type * from './queue-types.js';
export type * from './daemon-state-types.js';
export type * from './quiet-host-types.js';
export type * from './profile-types.js';
export type * from './calibration-types.js';
export type * from './bisection-types.js';
export type { JsonObject } from './json-object.js';
export { sessionStates } from './session-types.js';
export { buildStates } from './release-types.js';
export { bisectionOutcomes, bisectStepOutcomes } from './bisection-types.js';
export { eventKinds, eventStates, triageActions } from './check-types.js';
export {
  BuildNotFoundError,
  DuplicateResultError,
  EventNotFoundError,
  EventAlreadyOpenError,
  EventConflictError,
  EventNotOpenError,
  MessageNotFoundError,
  DuplicateSampleError,
  DuplicateInstructionRunError,
  HostNotFoundError,
  InvalidRecordError,
  QueueClaimError,
  QueueStateError,
  ReleaseNotFoundError,
  SchemaTooNewError,
  SchemaTooOldError,
  SessionNotFoundError,
  SessionStateError,
  StoreClosedError,
  StoreDiskFullError,
  StoreReadOnlyError,
  StoreError,
  StoreOpenError,
  UnknownStoreBackendError,
} from './errors.js';
export { defaultSqlitePath, openStore, storeBackends, type StoreBackend, type StoreOptions } from './open-store.js';
export { sqliteSchemaVersion } from './sqlite/index.js';
export { mysqlSchemaVersion, mysqlStoreLabel, type MysqlStoreOptions, type MysqlTls } from './mysql/index.js';
export {
  copyStore,
  DEFAULT_BATCH_ROWS,
  StoreCopyCountError,
  StoreCopyRefusedError,
  type StoreCopyParams,
  type StoreCopyReport,
  type TableCount,
} from './copy/index.js';
export { ranBy } from './session-runner.js';
export type * from './instruction-types.js';
export { instructionLaneStates } from './instruction-types.js';
