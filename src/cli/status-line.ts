import { secondsLeft, type WorkProgress } from '../model/index.js';
import { duration } from './relative-time.js';

/**
 * The one line redrawn on a terminal while long work runs, short enough for 80 columns:
 * `sweep 9/21 · 5/8 decided · update-index.t1 · about 4 min left`
 * `instructions 3/8 · update-index baseline · about 1 min left`
 * `build "mariadb-10.11.9" · compile [1234/5678] 21% · 3 min in · about 8 min left`
 */
export function statusLineText(work: WorkProgress, now: Date): string {
  const left = secondsLeft(work.endsAt, now);
  const eta = left === null ? [] : [`about ${duration(left)} left`];
  const elapsed = `${duration(Math.max(0, (now.getTime() - Date.parse(work.startedAt)) / 1000))} in`;
  if (work.kind === 'build') {
    const count = work.done !== null && work.total !== null ? ` [${work.done}/${work.total}]` : '';
    const percent = work.step === 'configure' ? '' : ` ${Math.floor(work.ratio * 100)}%`;
    return [`build ${JSON.stringify(work.tag)}`, `${work.step}${count}${percent}`, elapsed, ...eta].join(' · ');
  }
  if (work.stage === 'loading') return ['loading the test data', elapsed].join(' · ');
  if (work.stage === 'warm-up') return ['warm-up', elapsed].join(' · ');
  if (work.stage === 'instructions' && work.lane !== undefined && work.lane !== null)
    return [`instructions ${work.lane.run}/${work.lane.of}`, ...(work.test !== null ? [work.test] : []), ...eta].join(
      ' · ',
    );
  const parts: string[] = [];
  if (work.design === 'paired') {
    // Once tests are decided the shorter sweeps can pass the count planned with every test open: no "/N" then.
    const of = work.sweeps !== undefined && work.sweeps !== null && work.round <= work.sweeps ? `/${work.sweeps}` : '';
    parts.push(`sweep ${work.round}${of}`);
    if (work.decided !== undefined && work.decided !== null)
      parts.push(`${work.decided.tests}/${work.decided.of} decided`);
  } else {
    parts.push(`round ${work.round}/${work.rounds ?? '?'}`);
  }
  if (work.test !== null) parts.push(work.test);
  return [...parts, ...eta].join(' · ');
}
