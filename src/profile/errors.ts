/** A profiler ran and failed (refused by perf_event_paranoid or a seccomp filter, no samples, a crash). */
export class ProfilerFailedError extends Error {
  constructor(
    readonly tool: string,
    readonly reason: string,
  ) {
    super(`${tool}: ${reason}`);
    this.name = new.target.name;
  }
}

/** No profiler could profile the server: the one line a person gets instead of a profile, with every reason. */
export class NoProfileError extends Error {
  constructor(readonly reasons: readonly string[]) {
    super(`no profile: ${reasons.join('; ')}`);
    this.name = new.target.name;
  }
}
