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
