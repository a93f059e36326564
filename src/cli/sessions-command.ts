import type { VerdictSettings } from '../analysis/index.js';
import {
  isMemorySetting,
  verdictKinds,
  type MemorySettingName,
  type SessionDesignName,
  type VerdictKind,
} from '../model/index.js';
import { compareSettings } from '../session/index.js';
import { sessionVerdicts, storedPlan, type SessionJudgement, type SessionViewStores } from '../views/index.js';
import { left, makeTable, renderTextTable, right } from '../report/index.js';
import { sessionStates, type SessionRecord, type SessionState, type TargetRef } from '../store/index.js';
import type { Command } from './command.js';
import { EXIT_OK } from './exit-codes.js';
import { openStateStore } from './open-state-store.js';
import { integerFlag, parseCommandArgs } from './parse-args.js';
import { duration, relativeTime } from './relative-time.js';
import { UsageError } from './usage-error.js';

const DEFAULT_LIMIT = 20;

const HELP = `Usage: qpswatch sessions [--limit N] [--state STATE] [--json]

Lists the comparison sessions in the store, newest first: those of \`qpswatch compare\`, and the checks of
\`qpswatch check\` and the daemon. For each: its id, its state (running, done, interrupted, failed), when it
started ("3 h ago") and how long it took, its design (paired or runs, with the memory setting of a session
that ran under one: "paired io-bound"), its suite, the baseline B and the
candidate C (name, flavor, version), and how many tests it found a regression, an improvement, slower
(a significant drop within the margin), unstable or ok. A check's verdicts are the ones it stored; a
plain compare is judged again from its samples, as compare judged it. A session that did not finish
is not judged ("-").
\`qpswatch show ID\` prints one session's report again. Only reads the store: nothing is created.

Options:
  --limit N       at most N sessions (default ${DEFAULT_LIMIT})
  --state STATE   only sessions in this state: ${sessionStates.join(', ')}
  --json          the same as one JSON array, with ISO 8601 times
Exit codes: 0 listed (an empty list too); 1 the store could not be read; 2 bad input.
`;

type VerdictCounts = Record<VerdictKind, number>;

/** One session as the list shows it. */
export interface SessionSummary {
  id: number;
  state: SessionState;
  startedAt: string;
  endedAt: string | null;
  design: SessionDesignName;
  /** The memory setting the session ran under; absent: the server profiles as they are. */
  memory?: MemorySettingName;
  suite: string;
  baseline: TargetSummary;
  candidate: TargetSummary;
  /** Where the verdicts come from: the check's stored ones, the samples judged again, none (did not finish). */
  judged: SessionJudgement;
  /** null when not judged. */
  verdicts: VerdictCounts | null;
  /** Why it failed or was interrupted. */
  error: string | null;
}

type TargetSummary = Pick<TargetRef, 'name' | 'flavor' | 'version'>;

const FLAGS = { limit: { type: 'string' }, state: { type: 'string' }, json: { type: 'boolean' } } as const;

export const sessionsCommand: Command = {
  name: 'sessions',
  summary: 'past comparison sessions: targets, suite, state, when, verdict counts',
  help: HELP,
  flags: FLAGS,
  positionals: true,
  examples: [
    { does: 'The ten newest sessions', line: 'qpswatch sessions -n 10' },
    { does: 'Only those that finished', line: 'qpswatch sessions --state done' },
  ],
  needsConfig: true,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, FLAGS, HELP, true);
    if (positionals.length > 0)
      throw new UsageError(
        `sessions takes no arguments, got ${JSON.stringify(positionals[0])}: \`qpswatch show ID\` prints one session`,
        HELP,
      );
    const limit = integerFlag('--limit', values.limit, 1, 1_000_000) ?? DEFAULT_LIMIT;
    const state = parseState(values.state);
    const store = await openStateStore(ctx, { readonly: true });
    try {
      const sessions = await store.listSessions({ limit, ...(state !== undefined ? { state } : {}) });
      const summaries = await summarize(store, sessions, compareSettings(ctx.config).verdicts);
      ctx.stdout(
        values.json === true ? `${JSON.stringify(summaries, null, 2)}\n` : renderSessions(summaries, new Date(), state),
      );
    } finally {
      await store.close();
    }
    return EXIT_OK;
  },
};

function parseState(value: string | undefined): SessionState | undefined {
  if (value === undefined) return undefined;
  const states: readonly string[] = sessionStates;
  if (!states.includes(value))
    throw new UsageError(
      `--state ${JSON.stringify(value)} is not a session state: use one of ${sessionStates.join(', ')}`,
    );
  return value as SessionState;
}

/**
 * Each session with its verdict counts; `fallback` judges sessions recorded before their verdict settings were kept.
 */
export async function summarize(
  store: SessionViewStores,
  sessions: readonly SessionRecord[],
  fallback: VerdictSettings,
): Promise<SessionSummary[]> {
  const out: SessionSummary[] = [];
  for (const session of sessions) {
    const { judged, verdicts } = await sessionVerdicts(store, session, fallback, () =>
      store.completedSamples(session.id),
    );
    out.push({
      id: session.id,
      state: session.state,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      design: storedPlan(session, fallback).design,
      ...(isMemorySetting(session.settings['memory']) ? { memory: session.settings['memory'] } : {}),
      suite: session.suite,
      baseline: target(session.baseline),
      candidate: target(session.candidate),
      judged,
      verdicts: judged === 'none' ? null : countKinds(verdicts.map((v) => v.kind)),
      error: session.error,
    });
  }
  return out;
}

function target(ref: TargetRef): TargetSummary {
  return { name: ref.name, flavor: ref.flavor, version: ref.version };
}

export function countKinds(kinds: readonly VerdictKind[]): VerdictCounts {
  const counts = Object.fromEntries(verdictKinds.map((k) => [k, 0])) as VerdictCounts;
  for (const kind of kinds) counts[kind] += 1;
  return counts;
}

/** The list as a table; names are data, shown escaped (renderTextTable). */
export function renderSessions(sessions: readonly SessionSummary[], now: Date, state?: SessionState): string {
  if (sessions.length === 0)
    return (
      `no ${state !== undefined ? `${state} ` : ''}sessions in the ` +
      `store${state === undefined ? ': `qpswatch compare` runs one' : ''}\n`
    );
  const columns = [
    right('id'),
    left('state'),
    left('started'),
    right('took'),
    left('design'),
    left('suite'),
    left('baseline (B)'),
    left('candidate (C)'),
    right('reg/imp/slow/unst/ok'),
  ];
  const rows = sessions.map((s) => [
    String(s.id),
    s.state,
    relativeTime(s.startedAt, now),
    took(s, now),
    // Its verdict counts mean nothing without the memory setting they were measured under.
    s.memory === undefined ? s.design : `${s.design} ${s.memory}`,
    s.suite,
    targetCell(s.baseline),
    targetCell(s.candidate),
    s.verdicts === null
      ? '-'
      : [s.verdicts.regression, s.verdicts.improvement, s.verdicts.slower, s.verdicts.unstable, s.verdicts.ok].join(
          '/',
        ),
  ]);
  const footer =
    'reg/imp/slow/unst/ok: tests that regressed, improved, were slower ' +
    'within the margin, unstable or ok; "-": not judged (the session did ' +
    'not finish)';
  return `${[...renderTextTable(makeTable(columns, rows)), '', footer].join('\n')}\n`;
}

function targetCell(t: TargetSummary): string {
  return `${t.name} (${t.flavor} ${t.version})`;
}

/** How long the session took; a running one, how long it has run so far. */
function took(s: SessionSummary, now: Date): string {
  const end = s.endedAt === null ? now.getTime() : Date.parse(s.endedAt);
  const seconds = Math.max(0, (end - Date.parse(s.startedAt)) / 1000);
  if (Number.isNaN(seconds)) return '?';
  return s.endedAt === null ? `${duration(seconds)} so far` : duration(seconds);
}
