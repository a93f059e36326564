/**
 * `perf stat` where the host has a PMU: user-space instructions per thread of the server, read while the measured run
 * runs. perf's CSV output (-x,) per thread is `comm-tid,value,unit,event,run time,percent,metric,metric unit`; a
 * counter the host cannot count reads `<not supported>` (or `<not counted>` when it never ran).
 *
 * Untested on real hardware: the project's VM has no PMU (docs/verdicts.md). The parsing is unit-tested on the
 * format perf 6.1 writes for software events.
 */

import { z } from 'zod';

/** The event the lane counts: instructions retired in user space, as rustc-perf counts them. */
export const PERF_EVENT = 'instructions:u';

/** One thread's count of one event. */
export const ThreadCountSchema = z.strictObject({
  /** The thread's name (comm), as perf prints it. */
  comm: z.string(),
  tid: z.number().int().positive(),
  event: z.string().min(1),
  /** undefined: the event was not supported or not counted on this thread. */
  value: z.number().nonnegative().optional(),
});
export type ThreadCount = z.infer<typeof ThreadCountSchema>;

/** perf's output could not be read, or the event was not counted. */
export class PerfStatError extends Error {
  constructor(readonly reason: string) {
    super(`perf stat: ${reason}`);
    this.name = new.target.name;
  }
}

/**
 * `perf stat` counting `event` per thread of process `pid` until it is interrupted (SIGINT), its CSV into `outFile`.
 * Only the threads there when it starts are counted, so the lane starts it after the warm-up made the connection
 * thread, which the measured run's connection then takes from the thread cache.
 */
export function perfStatArgv(perf: string, pid: number, outFile: string, event = PERF_EVENT): string[] {
  return [perf, 'stat', '-e', event, '--per-thread', '-x', ',', '-o', outFile, '-p', String(pid)];
}

/** The counter lines of perf stat's CSV with --per-thread; comments and blank lines are left out. */
export function parsePerfStatPerThread(text: string): ThreadCount[] {
  const counts: ThreadCount[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    // A thread's name may hold a comma: the 7 fields after it are perf's own, so they are read from the right.
    const fields = line.split(',');
    if (fields.length < 8) throw new PerfStatError(`a line of fewer than 8 fields: ${JSON.stringify(line)}`);
    const [value, , event] = fields.slice(-7);
    const thread = fields.slice(0, -7).join(',');
    const dash = /^(.*)-(\d+)$/.exec(thread);
    if (dash === null) throw new PerfStatError(`no thread id in ${JSON.stringify(thread)}`);
    const number = /^\d+(\.\d+)?$/.test(value!) ? Number(value) : undefined;
    const parsed = ThreadCountSchema.safeParse({ comm: dash[1]!, tid: Number(dash[2]), event: event!, value: number });
    if (!parsed.success) throw new PerfStatError(`a line it cannot read: ${JSON.stringify(line)}`);
    counts.push(parsed.data);
  }
  return counts;
}

/**
 * The instructions of the connection thread: the thread that executed the most of them while the measured run ran
 * (the server's background threads stay nearly idle then: purge is held back, nothing is flushed). Throws when the
 * event was counted on no thread.
 */
export function connectionThreadCount(counts: readonly ThreadCount[], event = PERF_EVENT): ThreadCount {
  const counted = counts.filter((c) => c.event === event && c.value !== undefined);
  if (counted.length === 0)
    throw new PerfStatError(
      counts.some((c) => c.event === event)
        ? `${event} was not counted on any thread (<not supported>: no PMU, or perf_event_paranoid refuses it)`
        : `no ${event} line in its output`,
    );
  return counted.reduce((a, b) => (b.value! > a.value! ? b : a));
}

/**
 * Whether `perf stat -e instructions:u -x, -- true` counted the event: perf exits 0 even when the host cannot count
 * it, so only its output says (`<not supported>`). The reason when not.
 */
export function perfProbeProblem(output: string, event = PERF_EVENT): string | undefined {
  const line = output.split('\n').find((l) => l.split(',').includes(event));
  if (line === undefined) return `perf printed no ${event} count`;
  const value = line.split(',')[0]!;
  if (/^\d+(\.\d+)?$/.test(value)) return undefined;
  return `perf cannot count ${event} here (${value || 'no value'}): no PMU, as in most VMs`;
}
