import { ProcParseError } from './errors.js';

/** One line of a kernel file, kept with its number and file so any error can point at it. */
export interface SourceLine {
  file: string;
  lineNumber: number;
  text: string;
}

export function sourceLines(file: string, text: string): SourceLine[] {
  return text
    .split('\n')
    .map((line, i) => ({ file, lineNumber: i + 1, text: line }))
    .filter((l) => l.text.trim() !== '');
}

const DIGITS = /^\d+$/;

/** A kernel counter: a non-negative integer that still fits a double exactly, never NaN. */
export function parseCounter(src: SourceLine, token: string | undefined, what: string): number {
  if (token === undefined) throw lineError(src, `${what} is missing`);
  if (!DIGITS.test(token)) throw lineError(src, `${what} is "${token}", not a counter`);
  const value = Number(token);
  if (!Number.isSafeInteger(value)) throw lineError(src, `${what} ${token} is too large to count exactly`);
  return value;
}

export function lineError(src: SourceLine, reason: string): ProcParseError {
  return new ProcParseError(src.file, src.lineNumber, src.text, reason);
}

export function fields(line: string): string[] {
  return line.trim().split(/\s+/);
}
