import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { processAlive } from '../daemon/index.js';
import type { TerminalOutput } from '../log/index.js';
import type { WorkProgress } from '../model/index.js';
import { ensureTrustedFolder, readTextFile, writeFileSafely } from '../trust/index.js';
import { statusLineText } from './status-line.js';

/** What a long command (compare, check, build, calibrate) does with its progress. */
export interface ProgressSink {
  /** The work's progress as the session or the build reports it (their onWorkProgress). */
  report(work: WorkProgress): void;
  /** The work ended: the status line goes, and so does the progress file. Safe to call twice. */
  close(): void;
}

export interface ProgressTarget {
  /** The terminal's status line; undefined when stderr is no terminal, or with --quiet. */
  terminal: TerminalOutput | undefined;
  stateDir: string;
  /** The command, for `qpswatch status` in another terminal: "compare", "check", "build", "calibrate". */
  command: string;
  pid?: number;
  now?: () => Date;
}

/** How often the line is redrawn without news (the time left counts down) and the progress file written at most. */
const REDRAW_MS = 1000;
const FILE_EVERY_MS = 5000;

/**
 * The progress of a command run by hand: the status line on a terminal, redrawn every second, and a small file under
 * state_dir/progress that `qpswatch status` reads from another terminal (the daemon keeps its own in the store).
 */
export function progressSink(target: ProgressTarget): ProgressSink {
  const now = target.now ?? (() => new Date());
  const pid = target.pid ?? process.pid;
  const folder = join(target.stateDir, PROGRESS_FOLDER);
  const file = join(folder, `${pid}.json`);
  const startedAt = now().toISOString();
  let latest: WorkProgress | undefined;
  let writtenAt = 0;
  let closed = false;
  const draw = (): void => {
    if (latest !== undefined && target.terminal !== undefined) target.terminal.setStatus(statusLineText(latest, now()));
  };
  const timer = target.terminal !== undefined ? setInterval(draw, REDRAW_MS) : undefined;
  timer?.unref();
  const writeFile = (work: WorkProgress): void => {
    const at = now().getTime();
    if (at - writtenAt < FILE_EVERY_MS) return;
    writtenAt = at;
    try {
      ensureTrustedFolder(folder, { what: 'progress folder', elsewhere: 'choose another state_dir' });
      const record: CliProgress = { pid, command: target.command, startedAt, work };
      writeFileSafely(file, `${JSON.stringify(record)}\n`);
    } catch {
      // What status shows from another terminal is a convenience: the work goes on without it.
    }
  };
  return {
    report(work) {
      if (closed) return;
      latest = work;
      draw();
      writeFile(work);
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearInterval(timer);
      target.terminal?.clearStatus();
      rmSync(file, { force: true });
    },
  };
}

export const PROGRESS_FOLDER = 'progress';

const progressSchema = z.object({
  pid: z.number().int().positive(),
  command: z.string().max(32),
  startedAt: z.string().max(40),
  work: z.discriminatedUnion('kind', [
    z.looseObject({
      kind: z.literal('build'),
      tag: z.string(),
      step: z.string(),
      done: z.number().nullable(),
      total: z.number().nullable(),
      ratio: z.number(),
      startedAt: z.string(),
      endsAt: z.string().nullable(),
      etaFrom: z.enum(['last_build', 'rate']).nullable(),
    }),
    z.looseObject({
      kind: z.literal('session'),
      tag: z.string().nullable(),
      design: z.enum(['paired', 'runs']),
      stage: z.string(),
      round: z.number(),
      rounds: z.number().nullable(),
      test: z.string().nullable(),
      ratio: z.number(),
      startedAt: z.string(),
      endsAt: z.string().nullable(),
      etaFrom: z.enum(['budget', 'plan', 'lane']).nullable(),
      sweeps: z.number().nullable().optional(),
      decided: z.object({ tests: z.number(), of: z.number() }).nullable().optional(),
      lane: z.object({ run: z.number(), of: z.number() }).nullable().optional(),
    }),
  ]),
});

/** What a command run by hand left for `qpswatch status`: its pid, its name and its newest progress. */
export type CliProgress = { pid: number; command: string; startedAt: string; work: WorkProgress };

/** The progress of the commands running now on this host (their process alive); files of dead ones are left out. */
export function runningCommands(stateDir: string): CliProgress[] {
  const folder = join(stateDir, PROGRESS_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => /^[0-9]{1,10}\.json$/.test(n));
  } catch {
    return [];
  }
  const out: CliProgress[] = [];
  for (const name of names) {
    try {
      const parsed = progressSchema.safeParse(
        JSON.parse(readTextFile(join(folder, name), { what: 'progress file', maxBytes: 64 * 1024 })),
      );
      if (parsed.success && processAlive(parsed.data.pid)) out.push(parsed.data as CliProgress);
    } catch {
      // A file being replaced, or not one of ours: nothing to show.
    }
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/** Runs long work with its progress shown (progressSink), the status line and the file gone when it ends. */
export async function withProgress<T>(
  ctx: { statusLine: TerminalOutput | undefined; config: { state_dir: string } },
  command: string,
  work: (report: (progress: WorkProgress) => void) => Promise<T>,
): Promise<T> {
  const sink = progressSink({ terminal: ctx.statusLine, stateDir: ctx.config.state_dir, command });
  try {
    return await work((p) => sink.report(p));
  } finally {
    sink.close();
  }
}
