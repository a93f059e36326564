export type {
  DbCounterValue,
  HostInput,
  HostRecord,
  JsonObject,
  SampleInput,
  SampleRecord,
  SessionInput,
  SessionKind,
  SessionQuery,
  SessionRecord,
  SessionState,
  Store,
  TargetRef,
} from './store.js';
export { sessionStates } from './store.js';
export type {
  CheckInput,
  CheckOutcome,
  CheckRecord,
  EventRecord,
  EventState,
  ImportedResultInput,
  ImportedResultRecord,
  MessageInput,
  OutboxRecord,
  ReleaseSampleRecord,
  RerunRecord,
  TriageAction,
  TriageInput,
  TriageRecord,
  TriageResult,
  VerdictInput,
  VerdictRecord,
} from './check-types.js';
export { eventStates, triageActions } from './check-types.js';
export type { BuildInput, BuildRecord, BuildState, RecordReleasesResult, ReleaseInput, ReleaseRecord } from './release-types.js';
export { buildStates } from './release-types.js';
export type { DaemonStateInput, DaemonStateRecord, QueueMove, QueueRecord, QueueRecovery, QuietHostInput, QuietHostRecord } from './queue-types.js';
export type { CalibrationInput, CalibrationRecord } from './calibration-types.js';
export {
  BuildNotFoundError,
  DuplicateResultError,
  EventNotOpenError,
  MessageNotFoundError,
  DuplicateSampleError,
  HostNotFoundError,
  InvalidRecordError,
  QueueStateError,
  ReleaseNotFoundError,
  SchemaTooNewError,
  SchemaTooOldError,
  SessionNotFoundError,
  SessionStateError,
  StoreClosedError,
  StoreError,
  StoreOpenError,
  UnknownStoreBackendError,
} from './errors.js';
export { defaultSqlitePath, openStore, storeBackends, type StoreBackend, type StoreOptions } from './open-store.js';
export { sqliteSchemaVersion } from './sqlite/index.js';
