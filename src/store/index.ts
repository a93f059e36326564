export type {
  DbCounterValue,
  HostInput,
  HostRecord,
  JsonObject,
  SampleInput,
  SampleRecord,
  SampleRole,
  SessionInput,
  SessionKind,
  SessionQuery,
  SessionRecord,
  SessionState,
  Store,
  TargetRef,
} from './store.js';
export { sessionStates } from './store.js';
export {
  DuplicateSampleError,
  HostNotFoundError,
  InvalidRecordError,
  SchemaTooNewError,
  SessionNotFoundError,
  SessionStateError,
  StoreClosedError,
  StoreError,
  StoreOpenError,
  UnknownStoreBackendError,
} from './errors.js';
export { defaultSqlitePath, openStore, storeBackends, type StoreBackend, type StoreOptions } from './open-store.js';
export { sqliteSchemaVersion } from './sqlite/index.js';
