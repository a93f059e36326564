/** A device number split the way /proc/diskstats and mountinfo show it. */
export interface DevNumber {
  major: number;
  minor: number;
}

/**
 * Splits a Linux dev_t as glibc's gnu_dev_major/minor do. Takes a bigint (stat with { bigint: true }) because the
 * high bits of large major numbers lie beyond 2^32.
 */
export function splitDev(dev: bigint): DevNumber {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & 0xfffff000n);
  const minor = (dev & 0xffn) | ((dev >> 12n) & 0xffffff00n);
  return { major: Number(major), minor: Number(minor) };
}

export function formatDev(d: DevNumber): string {
  return `${d.major}:${d.minor}`;
}
