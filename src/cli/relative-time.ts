/**
 * A moment as people read it next to now: "12 min ago", "in 3 h". Whole units, rounded down, so it never says
 * more time has passed than has; the largest unit that gives at least 1 (s, min, h, d).
 */
export function relativeTime(iso: string, now: Date): string {
  const at = Date.parse(iso);
  // Not a time: shown as stored rather than hidden.
  if (Number.isNaN(at)) return iso;
  const seconds = (at - now.getTime()) / 1000;
  const amount = duration(Math.abs(seconds));
  return seconds > 0 && amount !== '0 s' ? `in ${amount}` : `${amount} ago`;
}

const UNITS: ReadonlyArray<[name: string, seconds: number]> = [
  ['d', 86_400],
  ['h', 3_600],
  ['min', 60],
];

/** A length of time in its largest whole unit: 59 s, 1 min, 59 min, 1 h, 23 h, 1 d. */
export function duration(seconds: number): string {
  for (const [name, size] of UNITS) if (seconds >= size) return `${Math.floor(seconds / size)} ${name}`;
  return `${Math.floor(seconds)} s`;
}
