import { InputError } from '../errors.js';

/**
 * A folder or file that qpswatch will not use because another user could change it, or one that is not what it must
 * be (a link, a FIFO, a file too large, not text). The message is one line: the subject, the part of its path that
 * is wrong, the owner or mode found, why it matters and the fix. Nothing was read, run or changed.
 */
export class UntrustedPathError extends InputError {
  constructor(
    /** What it is, as the config names it: "state_dir", "config file", "suite", "smtp_password_file". */
    readonly what: string,
    readonly path: string,
    /** The part of the path that failed (the path itself, or a folder above it). */
    readonly part: string,
    readonly problem: string,
  ) {
    super(part === path ? `${what} ${path} ${problem}` : `${what} ${path}: ${part} ${problem}`);
  }
}

/** A file that cannot be opened (missing, no permission): `code` is the errno; callers word it for their file. */
export class UnreadableFileError extends InputError {
  constructor(
    readonly what: string,
    readonly path: string,
    readonly code: string,
  ) {
    super(`${what} ${path} cannot be read (${code})`);
  }
}

/** A file that is not what a command reads: not a regular file (a FIFO), larger than its limit, or not UTF-8 text. */
export class UnfitFileError extends InputError {
  constructor(
    readonly what: string,
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${what} ${path} ${problem}`);
  }
}

/**
 * A folder ensureTrustedFolder could not make (no permission, a read-only or virtual filesystem): `code` is the
 * errno.
 */
export class FolderNotMadeError extends InputError {
  constructor(
    readonly what: string,
    readonly path: string,
    readonly code: string,
    elsewhere: string,
  ) {
    super(`${what} ${path} cannot be made (${code}): make it as root, or ${elsewhere}`);
  }
}
