import { checkStanding, newestValidChecks, type CheckStanding } from '../analysis/index.js';
import { testLabel, type SessionDesignName, type VerdictKind } from '../model/index.js';
import { verdictHeadline } from '../report/index.js';
import { summarize, type SessionSummary } from './sessions-command.js';
import { runningCommands, type CliProgress } from './progress-display.js';
import { statusLineText } from './status-line.js';
import { processAlive } from '../daemon/index.js';
import { compareSettings, thisHostCalibrations } from '../session/index.js';
import { calibrationSummary, newestPerSuite } from './calibration-text.js';
import type {
  BisectionStore,
  CalibrationRecord,
  CheckStore,
  DaemonStateRecord,
  DaemonStateStore,
  EventRecord,
  InstructionEventRecord,
  OutboxRecord,
  OutboxStore,
  QueueRecord,
  QueueStore,
  ReleaseRecord,
  ReleaseStore,
  SessionStore,
  VerdictRecord,
} from '../store/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { parseCommandArgs } from './parse-args.js';
import { relativeTime } from './relative-time.js';
import { cacheSizesText, progressText } from './progress-text.js';
import { measureCacheSizes } from '../compile/index.js';
import { undecidedTests, verdictSummary } from './verdict-summary.js';
import { bisectionLines, recentBisections, type StatusBisection } from './status-bisections.js';

const HELP = `Usage: qpswatch status [--json]

What qpswatch is doing and what it found, read from the store (the daemon need not run):
  - the daemon: its phase (discovering, building, waiting_for_quiet_host with the reason, benchmarking,
    notifying, idle) and since when ("12 min ago"), or that none is running; the last poll;
  - the work under way: a build's step and compile progress ([n/m] or percent), a session's round or sweep
    and test, each with how long is left ("about 8 min left") and what that guess comes from;
  - the disk qpswatch uses: ccache, the git mirrors and the installs, as the daemon last measured them
    (measured now when it never did);
  - the queue: each release in version order with its state (discovered, building, built, benchmarking,
    done, failed), attempts, how often its build or session failed and when it is tried again, and the
    last error;
  - the latest verdicts of each series: its newest valid check (ok, regression, or inconclusive: not last
    good, with the tests that were undecided or slower), test by test, with the interval and the smallest
    drop the session could detect ("ok, no drop larger than 4%", "slower 0.962 (0.931-0.987)");
  - the active regressions (open events; a drift, opened against the series' base, says so), the active
    instructions regressions (the instructions lane's open events: instructions per query C/B) and the emails
    still waiting in the outbox;
  - the newest calibration of this host per suite (qpswatch calibrate): its pair noise and what a 5%
    detectable drop costs;
  - the newest bisections (qpswatch bisect): the first bad commit with its subject and author, or why none.

Options:
  --json    the same as JSON, with ISO 8601 times
`;

export interface SeriesVerdicts {
  upstream: string;
  tag: string;
  baseline: string;
  /** inconclusive: no test regressed, but one was slower or unstable, so the release did not become last good */
  outcome: CheckStanding;
  judgedAt: string;
  sessionId: number;
  /** What the verdicts' `pairs` count: pairs (paired design) or rounds (whole runs, and sessions before the design). */
  design: SessionDesignName;
  verdicts: Array<
    Pick<
      VerdictRecord,
      | 'test'
      | 'threads'
      | 'kind'
      | 'relativeQps'
      | 'threshold'
      | 'low'
      | 'high'
      | 'confidence'
      | 'detectableDrop'
      | 'pairs'
    >
  >;
}

interface StatusReport {
  daemon: DaemonStateRecord & { running: boolean };
  queue: QueueRecord[];
  latest: SeriesVerdicts[];
  /**
   * Open events, regressions and drifts, with the tags of their release and of the release they were measured against.
   */
  regressions: Array<EventRecord & { tag: string; baselineTag: string }>;
  /** The instructions lane's open events, with the same tags. */
  instructionRegressions: Array<InstructionEventRecord & { tag: string; baselineTag: string }>;
  pendingEmails: Array<Pick<OutboxRecord, 'id' | 'subject' | 'attempts' | 'nextAttemptAt' | 'lastError'>>;
  /** This host's newest calibration per suite. */
  calibrations: CalibrationRecord[];
  /** The newest bisections (qpswatch bisect). */
  bisections: StatusBisection[];
  /** The newest session of any kind (a compare, a check, a calibration), with its verdict counts; null: none yet. */
  newestSession: SessionSummary | null;
  /** compare, check, build and calibrate run by hand on this host now, with their progress. */
  commands: CliProgress[];
}

const FLAGS = { json: { type: 'boolean' } } as const;

export const statusCommand: Command = {
  name: 'status',
  summary: 'the daemon phase, the queue, the latest verdicts, active regressions, pending email',
  help: HELP,
  flags: FLAGS,
  positionals: false,
  examples: [
    { does: 'What the daemon or a running compare is doing, and the newest verdicts', line: 'qpswatch status' },
    { does: 'The same as JSON, for a script', line: 'qpswatch status --json' },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, FLAGS, HELP);
    const store = await openStateStore(ctx, { readonly: true });
    try {
      const [newest] = await store.listSessions({ limit: 1 });
      const verdictSettings = compareSettings(ctx.config).verdicts;
      const report: StatusReport = {
        ...(await readStatus(store, ctx.config.host_name)),
        commands: runningCommands(ctx.config.state_dir),
        newestSession: newest === undefined ? null : ((await summarize(store, [newest], verdictSettings))[0] ?? null),
        calibrations: newestPerSuite(await thisHostCalibrations(ctx.config.state_dir, store)),
      };
      // The daemon measures every few minutes; without its figure, a walk now (seconds on a big cache).
      report.daemon.cacheSizes ??= await measureCacheSizes({
        cacheDir: ctx.config.cache_dir,
        stateDir: ctx.config.state_dir,
      }).catch(() => null);
      ctx.stdout(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderStatus(report, new Date()));
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};

/** What `qpswatch status` reads: the daemon's state and queue, releases, checks and events, the outbox. */
type StatusStores = DaemonStateStore &
  QueueStore &
  ReleaseStore &
  CheckStore &
  OutboxStore &
  SessionStore &
  BisectionStore;

type StoreStatus = Omit<StatusReport, 'calibrations' | 'newestSession' | 'commands'>;

async function readStatus(store: StatusStores, hostName: string): Promise<StoreStatus> {
  // This host's daemon: a pid says nothing of another host's.
  const state = await store.getDaemonState(hostName);
  const running = state.pid !== null && processAlive(state.pid);
  const releases = new Map((await store.listReleases()).map((r) => [r.id, r]));
  const open = await store.listEvents({ state: 'open' });
  const openInstructions = await store.listInstructionEvents({ state: 'open' });
  const tags = <T extends { releaseId: number; baselineReleaseId: number }>(e: T) => ({
    ...e,
    tag: releases.get(e.releaseId)?.tag ?? `#${e.releaseId}`,
    baselineTag: releases.get(e.baselineReleaseId)?.tag ?? `#${e.baselineReleaseId}`,
  });
  const pending = await store.listMessages('pending');
  return {
    daemon: { ...state, running },
    queue: await store.listQueue(),
    latest: await latestVerdicts(store, releases),
    regressions: open.map(tags),
    instructionRegressions: openInstructions.map(tags),
    pendingEmails: pending.map((m) => ({
      id: m.id,
      subject: m.subject,
      attempts: m.attempts,
      nextAttemptAt: m.nextAttemptAt,
      lastError: m.lastError,
    })),
    bisections: await recentBisections(store, releases),
  };
}

/** The newest valid check of each series (upstream). */
async function latestVerdicts(
  store: CheckStore & SessionStore,
  releases: ReadonlyMap<number, ReleaseRecord>,
): Promise<SeriesVerdicts[]> {
  const latest = new Map<string, SeriesVerdicts>();
  for (const [upstream, check] of newestValidChecks(
    await store.listChecks(),
    (c) => releases.get(c.releaseId)?.upstream,
  )) {
    const release = releases.get(check.releaseId)!;
    const verdicts = (await store.verdictsOfSession(check.sessionId)).map((v) => ({
      test: v.test,
      threads: v.threads,
      kind: v.kind,
      relativeQps: v.relativeQps,
      threshold: v.threshold,
      low: v.low,
      high: v.high,
      confidence: v.confidence,
      detectableDrop: v.detectableDrop,
      pairs: v.pairs,
    }));
    latest.set(upstream, {
      upstream,
      tag: release.tag,
      baseline: releases.get(check.baselineReleaseId)?.tag ?? '?',
      outcome: checkStanding(check),
      judgedAt: check.judgedAt,
      sessionId: check.sessionId,
      design: 'runs',
      verdicts,
    });
  }
  for (const s of latest.values())
    if ((await store.getSession(s.sessionId))?.settings['design'] === 'paired') s.design = 'paired';
  return [...latest.values()];
}

/**
 * One series' newest check: how it stands, with the tests that kept it from last good when any was undecided or
 * slower, then each verdict with its interval. Tags are data, JSON-quoted.
 */
export function seriesLines(s: SeriesVerdicts, now: Date): string[] {
  const why = undecidedTests(s.verdicts);
  const notGood = why !== '' ? `, not last good: ${why}` : '';
  return [
    `  ${s.upstream}: ${JSON.stringify(s.tag)} against ` +
      `${JSON.stringify(s.baseline)}: ${s.outcome}${notGood} (judged ` +
      `${relativeTime(s.judgedAt, now)})`,
    ...s.verdicts.map(
      (v) =>
        `    ${testLabel(v)}  ${v.relativeQps.toFixed(2)}  ` +
        `${verdictSummary(v, s.design === 'paired' ? 'pair' : 'round')}`,
    ),
  ];
}

/** The newest session in one line, and where to read it: `qpswatch show ID`. */
export function newestSessionLines(s: SessionSummary | null, now: Date): string[] {
  if (s === null) return [];
  const when = s.endedAt === null ? `started ${relativeTime(s.startedAt, now)}` : relativeTime(s.endedAt, now);
  const kinds = Object.entries(s.verdicts ?? {}).flatMap(([k, n]) => Array<VerdictKind>(n).fill(k as VerdictKind));
  const found = s.verdicts === null ? '' : `: ${verdictHeadline(kinds)}`;
  return [
    '',
    `newest session: ${s.id}, ${JSON.stringify(s.baseline.name)} against ${JSON.stringify(s.candidate.name)} ` +
      `(${s.suite}), ${s.state} ${when}${found}`,
    `  \`qpswatch show ${s.id}\` prints it; \`qpswatch sessions\` lists them all`,
  ];
}

/**
 * A release whose build or session failed: how often, and when the daemon tries again (retry_attempts,
 * retry_backoff_minutes).
 */
function retryText(q: QueueRecord, now: Date): string {
  if (q.failures === 0 || q.failedStep === null) return '';
  const waiting = q.nextAttemptAt !== null && (q.state === 'discovered' || q.state === 'built');
  return (
    `, ${q.failedStep} failed ${q.failures} ` +
    `time(s)${waiting ? `, next try ${relativeTime(q.nextAttemptAt!, now)}` : ''}`
  );
}

/** Times as people read them ("12 min ago"); --json keeps the ISO times. */
function renderStatus(r: StatusReport, now: Date): string {
  const ago = (iso: string | null, none: string): string => (iso === null ? none : relativeTime(iso, now));
  const out: string[] = [];
  const d = r.daemon;
  // Tags, reasons and subjects are data: JSON quoting shows odd characters instead of letting them act on a terminal.
  if (d.running)
    out.push(
      `daemon: pid ${d.pid}, ${d.phase}, started ` +
        `${ago(d.phaseSince, '?')}${d.detail !== null ? ` (${JSON.stringify(d.detail)})` : ''}`,
    );
  else out.push('daemon: not running');
  if (d.running && d.progress !== null) out.push(`  ${progressText(d.progress, now)}`);
  for (const c of r.commands)
    out.push(`${c.command}: pid ${c.pid}, started ${relativeTime(c.startedAt, now)}: ${statusLineText(c.work, now)}`);
  out.push(`last poll: ${ago(d.lastPollAt, 'never')}`);
  if (d.cacheSizes !== null) out.push(`disk: ${cacheSizesText(d.cacheSizes, now)}`);
  out.push('');
  out.push(`queue (${r.queue.length}):`);
  if (r.queue.length === 0) out.push('  (empty: the daemon queues releases when it polls)');
  // A fleet's store has a row of a release per slot (host or host class): each row then names its slot and claim.
  const fleet = new Set(r.queue.map((q) => q.slot)).size > 1;
  for (const q of r.queue) {
    out.push(
      `  ${q.upstream}  ${JSON.stringify(q.tag)}  ${q.state}, ${q.attempts} ` +
        `attempt(s)${retryText(q, now)}${q.lastError !== null ? `, last error: ${JSON.stringify(q.lastError)}` : ''}` +
        (fleet ? `  [${slotText(q)}]` : ''),
    );
  }
  out.push(...newestSessionLines(r.newestSession, now));
  out.push('', 'latest verdicts:');
  if (r.latest.length === 0)
    out.push(
      r.newestSession === null
        ? '  (no release checked yet)'
        : '  (no release checked yet: `qpswatch sessions` lists the compare sessions, `qpswatch show ID` prints one)',
    );
  for (const s of r.latest) {
    out.push(...seriesLines(s, now));
  }
  out.push('', `active regressions (${r.regressions.length}):`);
  for (const e of r.regressions) {
    const drift = e.kind === 'drift' ? `  drift against the base ${JSON.stringify(e.baselineTag)}` : '';
    out.push(
      `  ${e.upstream}  ${JSON.stringify(e.tag)}  ${testLabel(e)}  ` +
        `${e.relativeQps.toFixed(2)}${drift}${e.acked ? '  (acknowledged)' : ''} ` +
        ` opened ${relativeTime(e.openedAt, now)}`,
    );
  }
  out.push('', `active instructions regressions (${r.instructionRegressions.length}):`);
  for (const e of r.instructionRegressions) {
    const against = e.kind === 'drift' ? `drift against the base ${JSON.stringify(e.baselineTag)}` : e.baselineTag;
    out.push(
      `  ${e.upstream}  ${JSON.stringify(e.tag)}  ${testLabel(e)}  instructions/query x${e.ratio.toFixed(4)} of ` +
        `${against}${e.acked ? '  (acknowledged)' : ''}  opened ${relativeTime(e.openedAt, now)}`,
    );
  }
  out.push('', `pending emails (${r.pendingEmails.length}):`);
  for (const m of r.pendingEmails)
    out.push(
      `  ${m.id}  ${JSON.stringify(m.subject)}  ${m.attempts} attempt(s), ` +
        `next attempt ${relativeTime(m.nextAttemptAt, now)}` +
        (m.lastError !== null ? `, last error: ${JSON.stringify(m.lastError)}` : ''),
    );
  out.push('', `calibrations of this host (${r.calibrations.length}):`);
  if (r.calibrations.length === 0)
    out.push('  (none: run qpswatch calibrate to learn how small a drop a session can catch here)');
  for (const c of r.calibrations) out.push(`  ${calibrationSummary(c, now)}`);
  out.push(...bisectionLines(r.bisections, now));
  return `${out.join('\n')}\n`;
}

/** The slot of a fleet's queue row, and who holds it while it is worked on. */
function slotText(q: QueueRecord): string {
  // Store text, quoted like tags: a name with control characters cannot move the terminal.
  const slot = q.slot === '' ? 'pre-fleet' : JSON.stringify(q.slot);
  if (q.claimedBy === null) return slot;
  return `${slot}, claimed by ${JSON.stringify(q.claimedBy)} until ${q.claimExpiresAt ?? '?'}`;
}
