import { renderBisectNotice } from '../notify/index.js';
import type { BisectionInput, MessageInput, ReleaseRecord } from '../store/index.js';
import type { Upstream } from '../upstream/index.js';
import type { AlertSettings } from '../checks/index.js';

/**
 * The one follow-up email of a bisection, or undefined when no one is emailed. Its key is the event's when a
 * regression event started it (a bisection recorded again for the same event never queues a second email), else
 * the release's and the start time's (`qpswatch bisect --email`).
 */
export function bisectMessage(input: {
  alerts: AlertSettings;
  upstream: Upstream;
  release: ReleaseRecord;
  good: ReleaseRecord;
  bisection: BisectionInput;
  eventId?: number;
}): MessageInput | undefined {
  const { alerts, upstream, release, good, bisection } = input;
  if (alerts.emailTo.length === 0) return undefined;
  const rendered = renderBisectNotice({
    flavor: upstream.flavor,
    upstream: upstream.name,
    tag: release.tag,
    goodTag: good.tag,
    tests: bisection.tests,
    outcome: bisection.outcome,
    ...(bisection.firstBad !== undefined ? { firstBad: bisection.firstBad } : {}),
    candidates: bisection.candidates.length,
    commitCount: bisection.commitCount,
    builds: bisection.builds,
    steps: bisection.steps,
    ...(bisection.error !== undefined ? { error: bisection.error } : {}),
  });
  const domain = alerts.emailFrom.split('@')[1] ?? 'localhost';
  const of =
    input.eventId !== undefined ? `event-${input.eventId}` : `release-${release.id}.${Date.parse(bisection.startedAt)}`;
  return {
    eventKey: `bisect/${upstream.name}/${release.tag}/${of}`,
    from: alerts.emailFrom,
    to: [...alerts.emailTo],
    ...rendered,
    messageId: `<qpswatch.bisect.${of}@${domain}>`,
  };
}
