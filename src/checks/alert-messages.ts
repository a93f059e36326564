import type { EventPlan } from '../analysis/index.js';
import type { Config } from '../config/index.js';
import {
  renderAlert,
  renderFailureNotice,
  type AlertContent,
  type AlertProfile,
  type ChainedTest,
  type FailureContent,
} from '../notify/index.js';
import type { ComparisonView } from '../model/index.js';
import type { MessageInput, ReleaseRecord } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';

/** Who gets the emails, from whom, and the Grafana that links point to ('' for none). */
export interface AlertSettings {
  emailTo: readonly string[];
  emailFrom: string;
  grafanaUrl: string;
}

export function alertSettings(config: Config): AlertSettings {
  return { emailTo: config.email_to, emailFrom: config.email_from, grafanaUrl: config.grafana_url };
}

export interface AlertInput {
  alerts: AlertSettings;
  upstream: Upstream;
  release: ReleaseRecord;
  lastGood: ReleaseRecord;
  sessionId: number;
  view: ComparisonView;
  fingerprintId: string;
  plan: EventPlan;
  /** The session was directly against the series' base (lastGood is then the base): its regressions are drift. */
  againstBase?: boolean;
  /** A confirmation's chained series, for the drift email. */
  chain?: readonly ChainedTest[];
  /** The profile of the worst regressed test, or why there is none (event-profile.ts); absent when profiling is off. */
  profile?: AlertProfile;
}

/** The uid of the provisioned "relative QPS by version" dashboard (grafana/). */
export const RELATIVE_QPS_DASHBOARD_UID = 'qpswatch-relative-qps';

/**
 * The emails one check sends: one for the regressions it opened, one for the events it fixed that nobody
 * acknowledged. None when nobody is to be emailed. The event key makes each message unique in the outbox.
 */
export function alertMessages(input: AlertInput): MessageInput[] {
  if (input.alerts.emailTo.length === 0) return [];
  const messages: MessageInput[] = [];
  if (input.plan.opened.length > 0) messages.push(message(input, 'regression', input.plan.opened));
  const recovered = input.plan.fixed.filter((e) => !e.acked);
  if (recovered.length > 0) messages.push(message(input, 'recovery', recovered));
  return messages;
}

function message(
  input: AlertInput,
  kind: AlertContent['kind'],
  tests: ReadonlyArray<{ test: string; threads: number }>,
): MessageInput {
  const { alerts, upstream, release, lastGood } = input;
  const rendered = renderAlert({
    kind,
    flavor: upstream.flavor,
    upstream: upstream.name,
    tag: release.tag,
    version: release.version,
    comparedWith: { tag: lastGood.tag, version: lastGood.version },
    ...(input.againstBase === true ? { against: 'base' as const } : {}),
    ...(input.chain !== undefined ? { chain: input.chain } : {}),
    ...(input.profile !== undefined ? { profile: input.profile } : {}),
    tests: tests.map((t) => ({ test: t.test, threads: t.threads })),
    comparison: input.view,
    fingerprintId: input.fingerprintId,
    ...(alerts.grafanaUrl !== '' ? { dashboardUrl: dashboardUrl(alerts.grafanaUrl, upstream.name) } : {}),
  });
  const domain = alerts.emailFrom.split('@')[1] ?? 'localhost';
  return {
    eventKey: `${kind}/${upstream.name}/${release.tag}/session-${input.sessionId}`,
    from: alerts.emailFrom,
    to: [...alerts.emailTo],
    ...rendered,
    messageId: `<qpswatch.${kind}.session-${input.sessionId}@${domain}>`,
  };
}

export interface FailureInput {
  alerts: AlertSettings;
  upstream: Upstream;
  release: ReleaseRecord;
  kind: FailureContent['kind'];
  /** attempts made of the failed step */
  attempts: number;
  /**
   * the queue row's attempts counter (builds and sessions started), which makes the event key of this give-up unique
   */
  queueAttempts: number;
  /** the failure repeats the same way every time (a compiler error), so it was not tried again */
  repeats: boolean;
  errorLines: readonly string[];
}

/**
 * The one email of a release the daemon gave up on: "could not build" or "could not measure", with the last error
 * lines. None when nobody is to be emailed. Its event key names the release and the queue row's attempt count, so
 * the same give-up is never queued twice, while a release queued again later (a moved tag) can tell its own.
 */
export function failureMessage(input: FailureInput): MessageInput | undefined {
  const { alerts, upstream, release, kind } = input;
  if (alerts.emailTo.length === 0) return undefined;
  const retry =
    kind === 'could-not-build'
      ? `To try again: qpswatch build --retry ${release.tag} (the build log ` +
        `holds every line), then qpswatch check ${release.tag}.`
      : `To try again: qpswatch check ${release.tag}; the session's folder ` +
        `under state_dir/work holds the server and sysbench logs.`;
  const rendered = renderFailureNotice({
    kind,
    flavor: upstream.flavor,
    upstream: upstream.name,
    tag: release.tag,
    version: release.version,
    attempts: input.attempts,
    reason: input.repeats
      ? 'a compiler or cmake error fails the same way every time, so it is not tried again'
      : 'that was the last attempt retry_attempts allows',
    errorLines: input.errorLines,
    advice: [retry],
  });
  const domain = alerts.emailFrom.split('@')[1] ?? 'localhost';
  return {
    eventKey: `${kind}/${upstream.name}/${release.tag}/attempt-${input.queueAttempts}`,
    from: alerts.emailFrom,
    to: [...alerts.emailTo],
    ...rendered,
    messageId: `<qpswatch.${kind}.release-${release.id}.attempt-${input.queueAttempts}@${domain}>`,
  };
}

function dashboardUrl(base: string, upstream: string): string {
  const url = new URL(`d/${RELATIVE_QPS_DASHBOARD_UID}`, base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('var-series', upstream);
  return url.toString();
}
