import { readdirSync, readFileSync } from 'node:fs';

export interface FoundProcess {
  pid: number;
  /** The program's base name, e.g. mariadbd or sysbench. */
  program: string;
  cmdline: string;
}

/** Running processes of the given programs whose command line names `folder`: what a test started and must stop. */
export function processesUnder(
  folder: string,
  programs: readonly string[] = ['mariadbd', 'mysqld', 'sysbench', 'cmake'],
): FoundProcess[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        const args = readFileSync(`/proc/${p}/cmdline`, 'utf8')
          .split('\0')
          .filter((a) => a !== '');
        const program = (args[0] ?? '').split('/').at(-1) ?? '';
        const cmdline = args.join(' ');
        if (!programs.includes(program) || !cmdline.includes(folder)) return [];
        if (readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.startsWith('Z')) return [];
        return [{ pid: Number(p), program, cmdline }];
      } catch {
        return [];
      }
    });
}

/** A process as a test saw it: its start time (clock ticks after boot) tells it from a later one with its pid. */
export interface SeenProcess {
  pid: number;
  start: string;
  program: string;
  cmdline: string;
}

/** pid -> [parent pid, start time, state] of every process now, from /proc/PID/stat. */
function processTable(): Map<number, { ppid: number; start: string; state: string }> {
  const table = new Map<number, { ppid: number; start: string; state: string }>();
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      // The fields after "(comm) ": state, ppid, ...; the start time is the 22nd field of the whole line.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(p), { state: rest[0]!, ppid: Number(rest[1]), start: rest[19]! });
    } catch {
      // Gone meanwhile.
    }
  }
  return table;
}

function seen(pid: number, start: string): SeenProcess | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
    return { pid, start, program: (args[0] ?? '').split('/').at(-1) ?? '', cmdline: args.join(' ') };
  } catch {
    return undefined;
  }
}

/**
 * Every process a command started, whatever it did to leave its group or session (exec starts each child with
 * setsid, and its reaper in a session of its own): `sample()` while the command runs adds every process descending
 * from it, and `left()` says which of them still run (the same pid with the same start time, not a zombie). After the
 * command died its children belong to init, so they are found by what was seen of them, not by their parent.
 */
export class ProcessWatch {
  readonly #seen = new Map<string, SeenProcess>();

  constructor(readonly rootPid: number) {}

  /** Adds the command's descendants now; returns them. */
  sample(): SeenProcess[] {
    const table = processTable();
    const children = new Map<number, number[]>();
    for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    const found: SeenProcess[] = [];
    const walk = (pid: number): void => {
      for (const child of children.get(pid) ?? []) {
        const p = seen(child, table.get(child)!.start);
        if (p !== undefined && table.get(child)!.state !== 'Z') found.push(p);
        walk(child);
      }
    };
    walk(this.rootPid);
    for (const p of found) this.#seen.set(`${p.pid}:${p.start}`, p);
    return found;
  }

  /** Everything sample() ever saw, in pid order. */
  all(): SeenProcess[] {
    return [...this.#seen.values()].sort((a, b) => a.pid - b.pid);
  }

  /** What the watch saw that still runs. */
  left(): SeenProcess[] {
    const table = processTable();
    return this.all().filter((p) => {
      const now = table.get(p.pid);
      return now !== undefined && now.start === p.start && now.state !== 'Z';
    });
  }
}

/**
 * exec's reaper processes of this checkout (node running dist/src/exec/reaper-main.js): one runs beside each qpswatch
 * that started a server, and ends with it. Its command line names no state folder, so a search by folder misses it.
 * The test process's own reaper (a helper of the test ran something through exec) is left out: it ends with the test.
 */
export function reapersOf(projectRoot: string): SeenProcess[] {
  const main = `${projectRoot}/dist/src/exec/reaper-main.js`;
  return [...processTable()]
    .filter(([, { state, ppid }]) => state !== 'Z' && ppid !== process.pid)
    .flatMap(([pid, { start }]) => {
      const p = seen(pid, start);
      return p !== undefined && p.cmdline.split(' ').includes(main) ? [p] : [];
    });
}

/** Polls `probe` every 100 ms until it gives an empty list or `ms` have passed; returns its last answer. */
export async function untilNone<T>(probe: () => T[], ms = 10_000): Promise<T[]> {
  let left = probe();
  for (const deadline = Date.now() + ms; left.length > 0 && Date.now() < deadline; left = probe())
    await new Promise((resolve) => setTimeout(resolve, 100));
  return left;
}
