import { fields, lineError, parseCounter, sourceLines } from './counter.js';
import { ProcParseError } from './errors.js';

/** One line of /proc/<pid>/mountinfo (see proc(5)). */
export interface MountEntry {
  mountId: number;
  major: number;
  minor: number;
  /** The folder of the source filesystem that is mounted (a btrfs subvolume or a bind mount shows here). */
  root: string;
  mountPoint: string;
  fsType: string;
  /** What was mounted: "/dev/sda1", "overlay", "tmpfs", a ZFS dataset... */
  source: string;
  superOptions: string;
}

export function parseMountinfo(text: string, file = '/proc/self/mountinfo'): MountEntry[] {
  const lines = sourceLines(file, text);
  if (lines.length === 0) throw new ProcParseError(file, 0, '', 'the file is empty');
  return lines.map((src) => {
    const tokens = fields(src.text);
    const dash = tokens.indexOf('-', 6);
    if (dash < 0 || tokens.length < dash + 3) {
      throw lineError(src, 'no " - fstype source" part after the mount options');
    }
    const [majorText, minorText, extra] = (tokens[2] ?? '').split(':');
    if (extra !== undefined) throw lineError(src, `"${tokens[2]}" is not major:minor`);
    return {
      mountId: parseCounter(src, tokens[0], 'mount id'),
      major: parseCounter(src, majorText, 'major'),
      minor: parseCounter(src, minorText, 'minor'),
      root: unescapeOctal(tokens[3] ?? ''),
      mountPoint: unescapeOctal(tokens[4] ?? ''),
      fsType: tokens[dash + 1] ?? '',
      source: unescapeOctal(tokens[dash + 2] ?? ''),
      superOptions: tokens[dash + 3] ?? '',
    };
  });
}

/** The mount that holds an absolute, symlink-free path: the longest mount point above it, the last one if stacked. */
export function findMount(mounts: readonly MountEntry[], path: string): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const m of mounts) {
    if (!isUnder(path, m.mountPoint)) continue;
    if (best === undefined || m.mountPoint.length >= best.mountPoint.length) best = m;
  }
  return best;
}

function isUnder(path: string, mountPoint: string): boolean {
  if (mountPoint === '/') return path.startsWith('/');
  return path === mountPoint || path.startsWith(`${mountPoint}/`);
}

/** The kernel escapes space, tab, newline and backslash in paths as \ooo. */
function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}
