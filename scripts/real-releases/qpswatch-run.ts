import { join } from 'node:path';
import { defaultEnv, run, type RunResult } from '../../src/exec/index.js';
import { projectRoot } from '../../src/paths.js';
import { minutes, type Say } from './say.js';

/** One qpswatch command's outcome, with its wall time. */
export interface QpswatchResult extends RunResult {
  readonly seconds: number;
}

interface LogLine {
  level: number;
  msg: string;
  error?: string;
  [field: string]: unknown;
}

const HOURS = 3600_000;

/**
 * Runs `qpswatch --config CONFIG ARGS` as the daemon's own commands run, and shows its progress as it goes: the
 * command's own output (its tables) as it is, and of its JSON log lines those a person follows a long step by (the
 * compile's percent with its expected end, the download, a session's sweeps and looks), warnings and errors.
 */
export async function qpswatch(config: string, args: readonly string[], say: Say): Promise<QpswatchResult> {
  const started = Date.now();
  let pending = '';
  const result = await run({
    argv: [process.execPath, join(projectRoot, 'bin', 'qpswatch.js'), '--config', config, ...args],
    env: defaultEnv(),
    timeoutMs: 12 * HOURS,
    allowFailure: true,
    tailLines: 60,
    onOutput: (text) => {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) showLine(line, say);
    },
  });
  if (pending !== '') showLine(pending, say);
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

function showLine(line: string, say: Say): void {
  if (!line.startsWith('{')) {
    if (line.trim() !== '') say(`  | ${line}`);
    return;
  }
  let entry: LogLine;
  try {
    entry = JSON.parse(line) as LogLine;
  } catch {
    return;
  }
  const shown = describe(entry);
  if (shown !== undefined) say(`  ${shown}`);
}

/** The log lines worth a person's eye while a real build or check runs; undefined for the rest. */
function describe(e: LogLine): string | undefined {
  if (e.level >= 40)
    return `${e.level >= 50 ? 'error' : 'warning'}: ${e.msg}${e.error !== undefined ? `: ${e.error}` : ''}`;
  if (e.msg === 'compile progress') {
    const left = typeof e['endsAt'] === 'string' ? Date.parse(e['endsAt']) - Date.now() : undefined;
    const eta = left !== undefined && left > 0 ? `, about ${minutes(left)} left (${String(e['etaFrom'])})` : '';
    return `build ${String(e['tag'])}: ${String(e['step'])} ${String(e['percent'])}%${eta}`;
  }
  if (e.msg === 'build phase started') return `build: ${String(e['phase'])} started`;
  if (e.msg === 'build phase done') return `build: ${String(e['phase'])} done in ${minutes(Number(e['durationMs']))}`;
  if (e.msg === 'download progress') return `download: ${String(e['percent'] ?? '?')}%`;
  if (
    /^(downloading|downloaded; sha256 verified|unpacking tarball|patch applied|built|installing the Debian)/.test(e.msg)
  )
    return e.msg;
  if (/^sweep \d+:/.test(e.msg)) {
    const left = Number(e['budgetLeftMinutes']);
    return `${e.msg}${Number.isFinite(left) ? ` (at most ${left.toFixed(1)} min of the budget left)` : ''}`;
  }
  if (/^look at \d+ blocks|^warm-up|server up(:|$)|^budget [\d.]+ min pays for/.test(e.msg)) return e.msg;
  return undefined;
}
