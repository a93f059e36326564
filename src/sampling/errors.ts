/** Base of every error the sampling room throws, so callers can tell a bad measurement from other failures. */
export class SamplingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A kernel file (/proc/stat, /proc/diskstats, mountinfo, cpuinfo) that does not read as one. */
export class ProcParseError extends SamplingError {
  constructor(
    readonly file: string,
    /** 1-based; 0 when the problem is the file as a whole (empty, a required line missing). */
    readonly lineNumber: number,
    readonly line: string,
    readonly reason: string,
  ) {
    const where = lineNumber > 0 ? `line ${lineNumber} ("${clip(line)}")` : 'the file';
    super(`${file}: ${where} is not valid: ${reason}; the file is truncated or not from a Linux kernel`);
  }
}

/** A counter that went down between two samples: it wrapped, or a device or server was reset in between. */
export class CounterWrapError extends SamplingError {
  constructor(
    readonly counter: string,
    readonly before: number,
    readonly after: number,
  ) {
    super(
      `counter ${counter} went backwards (${before} -> ${after}): it wrapped or was reset during the interval; ` +
        'discard this sample and measure again',
    );
  }
}

/** Two samples that do not bound a usable interval (wrong order, too short, different CPUs or device). */
export class SamplingIntervalError extends SamplingError {
  constructor(readonly reason: string) {
    super(`the two host samples do not make a measured interval: ${reason}`);
  }
}

/** A rate or count to normalize by that is not a positive finite number. */
export class InvalidRateError extends SamplingError {
  constructor(
    readonly field: string,
    readonly value: number,
  ) {
    super(`${field} must be a finite number greater than 0 to compute per-operation values, got ${value}`);
  }
}

/** No device could be named for a data folder, not even the sum of all disks. */
export class DataDeviceError extends SamplingError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`no data device found for ${path}: ${reason}`);
  }
}

/** SHOW GLOBAL STATUS output that does not have the expected shape or value. */
export class StatusParseError extends SamplingError {
  constructor(
    readonly counter: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`SHOW GLOBAL STATUS ${counter}: ${reason} (value: ${JSON.stringify(value)})`);
  }
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
