import { memorySettings, type MemorySettingName, type TestId } from '../model/index.js';

/** One relative QPS table of the history: a suite's level (its threads) under one memory setting (absent: none). */
export interface HistoryLevel {
  threads: number;
  memory?: MemorySettingName;
}

const MEMORY_ORDER: ReadonlyArray<MemorySettingName | undefined> = [undefined, ...memorySettings];

/**
 * The levels of the view's tests: sessions without a memory setting first, then cached, then io-bound; fewest threads
 * first in each.
 */
export function historyLevels(tests: readonly TestId[]): HistoryLevel[] {
  const seen = new Map<string, HistoryLevel>();
  for (const row of tests)
    seen.set(`${row.threads}\u0000${row.memory ?? ''}`, {
      threads: row.threads,
      ...(row.memory !== undefined ? { memory: row.memory } : {}),
    });
  return [...seen.values()].sort(
    (a, b) => MEMORY_ORDER.indexOf(a.memory) - MEMORY_ORDER.indexOf(b.memory) || a.threads - b.threads,
  );
}

/** "2 threads, io-bound": what a table's heading says of its level. */
export function levelPhrase(level: HistoryLevel): string {
  return (
    `${level.threads} ` +
    `thread${level.threads === 1 ? '' : 's'}${level.memory === undefined ? '' : `, ${level.memory}`}`
  );
}
