// The checks room: a release checked against its last good (or the series' base), the events and emails of what it
// found, the drift a series shows, and the outbox's delivery.
export {
  checkRelease,
  lastGoodBelow,
  ReleaseNotBuiltError,
  type CheckAgainst,
  type CheckDeps,
  type CheckRequest,
  type CheckResult,
} from './check-release.js';
export {
  checkAndConfirm,
  confirmOwed,
  suspicionText,
  type CheckedResult,
  type ConfirmedCheck,
  type ConfirmOptions,
} from './confirm-drift.js';
export {
  acceptedReference,
  BaseNotBuiltError,
  chainedSeries,
  chainChecks,
  confirmedDrifts,
  NoSeriesBaseError,
  NotAfterBaseError,
  reanchorDue,
  seriesBase,
  stepsByTest,
  suspectedDrifts,
  type DriftSuspicion,
} from './drift.js';
export { checkSettings, type CheckSettings, type BisectSettings } from './check-settings.js';
export { alertSettings, type AlertSettings, failureMessage } from './alert-messages.js';
export { deliverPending, mailSettings, type DeliverDeps } from './deliver.js';
