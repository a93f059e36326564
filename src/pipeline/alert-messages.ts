import type { EventPlan } from '../analysis/index.js';
import type { Config } from '../config/index.js';
import { renderAlert, type AlertContent } from '../notify/index.js';
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

function message(input: AlertInput, kind: AlertContent['kind'], tests: ReadonlyArray<{ test: string; threads: number }>): MessageInput {
  const { alerts, upstream, release, lastGood } = input;
  const rendered = renderAlert({
    kind,
    flavor: upstream.flavor,
    upstream: upstream.name,
    tag: release.tag,
    version: release.version,
    comparedWith: { tag: lastGood.tag, version: lastGood.version },
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

function dashboardUrl(base: string, upstream: string): string {
  const url = new URL(`d/${RELATIVE_QPS_DASHBOARD_UID}`, base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('var-series', upstream);
  return url.toString();
}
