import { ProfileError } from '../config/index.js';
import { InputError } from '../errors.js';

/** The three steps of a build, in order. */
export const BUILD_PHASES = ['configure', 'build', 'install'] as const;
export type BuildPhase = (typeof BUILD_PHASES)[number];

/** A build profile file that cannot be used; `field` is a dotted path inside the file. */
export class BuildProfileError extends ProfileError {
  static override readonly profileKind = 'build profile';
}

/** A program the build needs is not installed. */
export class BuildToolMissingError extends InputError {
  constructor(
    readonly program: string,
    readonly debianPackage: string,
  ) {
    super(
      `${program} not found on PATH: install it (Debian: apt-get install ` +
        `${debianPackage}) or fix PATH in the build profile's env`,
    );
    this.name = new.target.name;
  }
}

/**
 * Debian packages the build profile names are not installed and could not be: the build does not start. One line
 * naming each package, why, and the fix.
 */
export class BuildPackagesError extends InputError {
  constructor(
    readonly packages: readonly string[],
    readonly reason: string,
  ) {
    const list = packages.join(' ');
    super(
      `the build needs the Debian package${packages.length > 1 ? 's' : ''} ${list}: not installed, and ${reason}; ` +
        `install ${packages.length > 1 ? 'them' : 'it'} (apt-get install ${list}) or drop ` +
        `${packages.length > 1 ? 'them' : 'it'} from the build profile's packages`,
    );
    this.name = new.target.name;
  }
}

export interface BuildFailure {
  readonly worktree: string;
  readonly phase: BuildPhase;
  /** null when the process was killed (timeout) rather than exiting. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** The last lines the phase printed (stdout and stderr together). */
  readonly lines: readonly string[];
  /** Compiler and CMake error lines picked from the whole phase output: where the fault is. */
  readonly failureLines: readonly string[];
  readonly logFile: string;
}

/** cmake configure, build or install failed or ran out of time. A release that does not build is data, not a crash. */
export class BuildFailedError extends Error {
  constructor(readonly failure: BuildFailure) {
    const how = failure.timedOut
      ? 'ran out of time'
      : failure.signal !== null
        ? `was killed by ${failure.signal}`
        : `exited with code ${failure.exitCode}`;
    const first = failure.failureLines[0] ?? failure.lines.at(-1);
    super(
      `build of ${failure.worktree} failed in ${failure.phase}: cmake ${how}` +
        (first !== undefined ? `: ${first}` : '') +
        `; full log: ${failure.logFile}`,
    );
    this.name = new.target.name;
  }
}

/** The caller's AbortSignal stopped the build (daemon shutdown): not a verdict on the release. */
export class BuildAbortedError extends Error {
  constructor(
    readonly worktree: string,
    readonly phase: BuildPhase,
  ) {
    super(`build of ${worktree} was stopped during ${phase}`);
    this.name = new.target.name;
  }
}

/** The lock file of a build key cannot be made or taken over. */
export class BuildLockError extends InputError {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`build lock ${path} ${problem}`);
    this.name = new.target.name;
  }
}

/** Not enough free disk space to start a build. */
export class DiskSpaceError extends InputError {
  constructor(
    readonly dir: string,
    readonly freeBytes: number,
    readonly neededBytes: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** tar could not unpack a tarball, or it did not hold a server installation. */
export class TarballUnpackError extends InputError {
  constructor(
    readonly file: string,
    readonly lines: readonly string[],
    problem: string,
  ) {
    super(`tarball ${file}: ${problem}${lines.length > 0 ? ` (${lines.join(' | ')})` : ''}`);
    this.name = new.target.name;
  }
}
