import { fields, lineError, sourceLines } from './counter.js';
import { ProcParseError } from './errors.js';

/** /proc/loadavg: run-queue averages over 1, 5 and 15 minutes. */
export interface LoadAverage {
  load1: number;
  load5: number;
  load15: number;
}

const LOAD = /^\d+\.\d+$/;
const TASKS = /^\d+\/\d+$/;
const PID = /^\d+$/;

/** Parses the one line of /proc/loadavg, e.g. "0.52 0.58 0.59 1/467 12345". */
export function parseLoadavg(text: string, file = '/proc/loadavg'): LoadAverage {
  const lines = sourceLines(file, text);
  const src = lines[0];
  if (src === undefined) throw new ProcParseError(file, 0, '', 'the file is empty');
  if (lines.length > 1) throw lineError(lines[1] ?? src, 'expected one line');
  const parts = fields(src.text);
  const [l1 = '', l5 = '', l15 = '', tasks = '', pid = ''] = parts;
  if (parts.length !== 5 || ![l1, l5, l15].every((t) => LOAD.test(t)) || !TASKS.test(tasks) || !PID.test(pid)) {
    throw lineError(src, 'expected "load1 load5 load15 running/total lastpid"');
  }
  return { load1: Number(l1), load5: Number(l5), load15: Number(l15) };
}
