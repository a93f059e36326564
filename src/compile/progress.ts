/** How far a compile is, from one line of the build tool's output. */
export interface CompileProgress {
  /** Targets done and in all (ninja's [n/m]); null for make, which prints only a percent. */
  readonly done: number | null;
  readonly total: number | null;
  /** 0..1. */
  readonly ratio: number;
}

// ninja's default NINJA_STATUS "[%f/%t] " (finished/total) at the start of each edge's line.
const NINJA = /^\[(\d+)\/(\d+)\]\s/;
// The Makefiles cmake writes print "[ 42%] Building CXX object ..." (the percent of the target's rules done).
const MAKE = /^\[\s*(\d{1,3})%\]\s/;

/** The progress a line says, or undefined for any other line (compiler output, warnings, cmake's own lines). */
export function parseProgressLine(line: string): CompileProgress | undefined {
  const ninja = NINJA.exec(line);
  if (ninja !== null) {
    const done = Number(ninja[1]);
    const total = Number(ninja[2]);
    if (total === 0 || done > total) return undefined;
    return { done, total, ratio: done / total };
  }
  const make = MAKE.exec(line);
  if (make !== null) {
    const percent = Number(make[1]);
    return percent > 100 ? undefined : { done: null, total: null, ratio: percent / 100 };
  }
  return undefined;
}

/**
 * Reads a build's output as it streams in (chunks cut anywhere) and calls onProgress each time the ratio grows. It
 * never goes back: make -j prints the percents of several targets interleaved, and ninja's total can grow when cmake
 * reruns; a person watching wants a bar that only moves forward.
 */
export function compileProgressReader(onProgress: (progress: CompileProgress) => void): (chunk: string) => void {
  let partial = '';
  let best = -1;
  return (chunk) => {
    const lines = (partial + chunk).split(/\r\n|\r|\n/);
    partial = lines.pop() ?? '';
    // A line longer than any status line is not one: no need to keep all of a compiler's error dump.
    if (partial.length > 4096) partial = '';
    for (const line of lines) {
      const progress = parseProgressLine(line);
      if (progress === undefined || progress.ratio <= best) continue;
      best = progress.ratio;
      onProgress(progress);
    }
  };
}
