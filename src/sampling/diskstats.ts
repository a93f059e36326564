import { fields, lineError, parseCounter, sourceLines } from './counter.js';
import { ProcParseError } from './errors.js';

/** One line of /proc/diskstats. Sectors are always 512 bytes there, whatever the device's own sector size. */
export interface DiskStats {
  major: number;
  minor: number;
  name: string;
  readsCompleted: number;
  readsMerged: number;
  sectorsRead: number;
  msReading: number;
  writesCompleted: number;
  writesMerged: number;
  sectorsWritten: number;
  msWriting: number;
  iosInProgress: number;
  msDoingIo: number;
  weightedMsDoingIo: number;
}

export const DISKSTATS_SECTOR_BYTES = 512;

const COUNTERS = [
  'readsCompleted',
  'readsMerged',
  'sectorsRead',
  'msReading',
  'writesCompleted',
  'writesMerged',
  'sectorsWritten',
  'msWriting',
  'iosInProgress',
  'msDoingIo',
  'weightedMsDoingIo',
] as const;

/** Parses /proc/diskstats: the 14 fields of kernel 2.6.25+ (later discard and flush columns are unused). */
export function parseDiskstats(text: string, file = '/proc/diskstats'): DiskStats[] {
  const lines = sourceLines(file, text);
  if (lines.length === 0) throw new ProcParseError(file, 0, '', 'the file is empty');
  return lines.map((src) => {
    const tokens = fields(src.text);
    if (tokens.length < 3 + COUNTERS.length) {
      throw lineError(src, `a device line needs ${3 + COUNTERS.length} fields, it has ${tokens.length}`);
    }
    const name = tokens[2] as string;
    if (!/^[\w.:@+-]+$/.test(name)) {
      throw lineError(src, `"${name}" is not a device name`);
    }
    const n = (i: number): number => parseCounter(src, tokens[3 + i], COUNTERS[i] as string);
    return {
      major: parseCounter(src, tokens[0], 'major'),
      minor: parseCounter(src, tokens[1], 'minor'),
      name,
      readsCompleted: n(0),
      readsMerged: n(1),
      sectorsRead: n(2),
      msReading: n(3),
      writesCompleted: n(4),
      writesMerged: n(5),
      sectorsWritten: n(6),
      msWriting: n(7),
      iosInProgress: n(8),
      msDoingIo: n(9),
      weightedMsDoingIo: n(10),
    };
  });
}
