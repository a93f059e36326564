import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { UnfitFileError, UnreadableFileError } from './errors.js';
import { checkTrustedFile, kindOf, type FileSubject } from './trusted-path.js';

export interface ReadLimits {
  /** How messages name the file: "config file", "import file". */
  what: string;
  /** A file larger than this is refused before it is read. */
  maxBytes: number;
}

/**
 * A file read whole, safely whatever it is: opened without blocking (a FIFO never hangs the command, and SIGTERM
 * still works), used only when it is a regular file of at most maxBytes, and decoded only when it is UTF-8 text
 * without NUL bytes. Each refusal is one line that never quotes the file: it may be any file (a binary, a secret).
 */
export function readTextFile(path: string, limits: ReadLimits): string {
  return decodeText(readBytes(resolve(path), limits), limits.what, resolve(path));
}

/** checkTrustedFile, then readTextFile: for files whose contents become root's code or secrets. */
export function readTrustedText(path: string, subject: FileSubject & ReadLimits): string {
  checkTrustedFile(path, subject);
  return readTextFile(path, subject);
}

function readBytes(path: string, { what, maxBytes }: ReadLimits): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    throw new UnreadableFileError(what, path, (err as NodeJS.ErrnoException).code ?? 'error');
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) throw new UnfitFileError(what, path, `is not a regular file (${kindOf(s)}): name a regular file`);
    if (s.size > maxBytes) throw tooLarge(what, path, s.size, maxBytes);
    // One byte more than fstat said: a file that grew meanwhile is seen, and never more than the limit is held.
    const buffer = Buffer.alloc(s.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > s.size) throw new UnfitFileError(what, path, 'grew while it was read: run again once it is written');
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(what: string, path: string, size: number, maxBytes: number): UnfitFileError {
  return new UnfitFileError(
    what,
    path,
    `is ${size} bytes, over the limit of ${maxBytes} bytes for this file: name the right file, or split it`,
  );
}

/** UTF-8 text without NUL bytes, else one line naming the first bad byte's offset and line. */
export function decodeText(bytes: Buffer, what: string, path: string): string {
  const bad = firstBadByte(bytes);
  if (bad === undefined) return bytes.toString('utf8');
  const line = countLines(bytes, bad.offset);
  const why = bad.nul ? 'a NUL byte' : 'a byte sequence that is not UTF-8';
  throw new UnfitFileError(
    what,
    path,
    `is not UTF-8 text: ${why} at byte ${bad.offset} (line ${line}): name a text file, or save it as UTF-8`,
  );
}

function countLines(bytes: Buffer, end: number): number {
  let lines = 1;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) lines++;
  return lines;
}

/** The offset of the first NUL or of the first byte that starts no valid UTF-8 sequence (RFC 3629). */
function firstBadByte(bytes: Buffer): { offset: number; nul: boolean } | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === 0) return { offset: i, nul: true };
    const length = sequenceLength(bytes, i);
    if (length === 0) return { offset: i, nul: false };
    i += length;
  }
  return undefined;
}

/** Bytes of the valid UTF-8 sequence at i, 0 when there is none (overlong forms and surrogates included). */
function sequenceLength(bytes: Buffer, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const c = bytes[i + k];
    return c !== undefined && c >= lo && c <= hi;
  };
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
