import { formatBytes } from '../compile/index.js';
import { secondsLeft, type CacheSizes, type WorkProgress } from '../model/index.js';
import { duration, relativeTime } from './relative-time.js';

const ETA_FROM: Record<string, string> = {
  last_build: "from the series' last build",
  rate: 'from the rate so far',
  budget: "the budget's end; sooner when every test is decided",
  plan: 'from the planned test seconds left',
  lane: "from the lane's runs so far",
};

/** One line of the work under way: `building "tag": build 1234/5678 (21%), about 8 min left (from ...)`. */
export function progressText(work: WorkProgress, now: Date): string {
  const percent = `${Math.floor(work.ratio * 100)}%`;
  const left = secondsLeft(work.endsAt, now);
  const eta =
    left === null
      ? ''
      : `, about ${duration(left)} left${work.etaFrom !== null ? ` (${ETA_FROM[work.etaFrom] ?? work.etaFrom})` : ''}`;
  const started = `, started ${relativeTime(work.startedAt, now)}`;
  if (work.kind === 'build') {
    const count = work.done !== null && work.total !== null ? ` [${work.done}/${work.total}]` : '';
    return `building ${JSON.stringify(work.tag)}: ${work.step}${count} ${percent}${eta}${started}`;
  }
  const tag = work.tag !== null ? ` ${JSON.stringify(work.tag)}` : '';
  if (work.stage === 'instructions' && work.lane !== undefined && work.lane !== null) {
    const what = work.test !== null ? `, ${JSON.stringify(work.test)}` : '';
    return (
      `benchmarking${tag}: instructions lane, run ${work.lane.run} of ${work.lane.of}${what}, ` +
      `${percent} of the lane${eta}${started}`
    );
  }
  const where = work.design === 'paired' ? `sweep ${work.round}` : `round ${work.round} of ${work.rounds ?? '?'}`;
  const test = work.test !== null ? `, ${JSON.stringify(work.test)}` : '';
  const share = work.design === 'paired' ? `${percent} of the budget` : `${percent} of the plan`;
  return (
    `benchmarking${tag}: ` +
    `${work.stage}${work.stage === 'loading' ? '' : `, ${where}`}${test}, ` +
    `${share}${eta}${started}`
  );
}

export function cacheSizesText(sizes: CacheSizes, now: Date): string {
  const { ccache, mirrors, builds } = sizes.bytes;
  return (
    `ccache ${formatBytes(ccache)}, git mirrors ${formatBytes(mirrors)}, ` +
    `installs ${formatBytes(builds)} (measured ` +
    `${relativeTime(sizes.measuredAt, now)})`
  );
}
