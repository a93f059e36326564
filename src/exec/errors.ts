/** A child process that ended badly. The data stays in fields so callers never match on message text. */
export class ExecError extends Error {
  constructor(
    message: string,
    readonly argv: readonly string[],
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly tail: readonly string[],
    readonly logFile: string | undefined,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The program does not exist or is not on PATH. */
export class ExecNotFoundError extends ExecError {
  constructor(
    readonly program: string,
    argv: readonly string[],
  ) {
    super(`program not found: ${program}`, argv, null, null, [], undefined);
  }
}

/** The child ran past its timeout and was stopped by escalation. */
export class ExecTimeoutError extends ExecError {
  constructor(
    readonly timeoutMs: number,
    argv: readonly string[],
    signal: NodeJS.Signals | null,
    tail: readonly string[],
    logFile: string | undefined,
  ) {
    super(`${argv[0]} ran longer than ${timeoutMs} ms and was stopped`, argv, null, signal, tail, logFile);
  }
}
