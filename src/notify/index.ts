export { createMailer, mailerKind } from './create-mailer.js';
export type { Mailer, MailerKind, MailSettings, OutgoingMessage } from './mailer.js';
export { emlFileName, subjectSlug } from './eml-mailer.js';
export {
  deliverOutbox,
  retryDelaySeconds,
  type DeliverOptions,
  type DeliveryResult,
  type OutboxEntry,
  type OutboxPort,
} from './outbox.js';
export { describeAttemptError } from './attempt-error.js';
export { InvalidAlertError, MailSettingsError, PlaintextAuthRefusedError, SmtpDeadlineError } from './errors.js';
export type { AlertContent, AlertProfile, ChainedTest, RenderedMessage } from './alert-content.js';
export { renderAlert } from './render-alert.js';
export { failureSubject, inertLine, renderFailureNotice, type FailureContent } from './render-failure.js';
export { bisectSubject, renderBisectNotice, type BisectContent, type BisectStepContent } from './render-bisect.js';
export {
  instructionsSubject,
  renderInstructionsAlert,
  type InstructionsAlertContent,
  type InstructionsAlertTest,
} from './render-instructions.js';
