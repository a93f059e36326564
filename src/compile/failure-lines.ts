import { printable } from '../report/index.js';

// What the compiler, the linker and CMake say: gcc/clang "file.c:12:5: error: ...", "fatal error:", ld's
// "undefined reference", CMake's "CMake Error at CMakeLists.txt:7 (message):" with the message on the next line;
// and a full disk, whichever tool met it (as, ld, make, cmake say it each their own way).
const CAUSE_RE = /(?:\b(?:fatal )?error:|undefined reference to|^CMake Error\b|No space left on device)/;
// What make and ninja say about it afterwards: which target failed.
const TOOL_RE = /(?:\*\*\* \[.*\] Error \d+|^FAILED: )/;
const MAX_ERROR_LINES = 12;

/**
 * The lines that say where a build broke, at most a dozen: the compiler's, linker's and CMake's first, in output
 * order, then make's and ninja's notes on which target failed. The first line is usually the cause. They are a tag's
 * text: control characters come out escaped (printable), so no escape sequence reaches a terminal, log or email.
 */
export function pickFailureLines(output: string): string[] {
  const lines = output.split('\n').map((l) => l.trimEnd());
  const causes: string[] = [];
  const tools: string[] = [];
  lines.forEach((line, i) => {
    if (CAUSE_RE.test(line)) {
      causes.push(line.trim());
      // CMake puts the message itself on the following indented line.
      const next = lines[i + 1]?.trim();
      if (line.startsWith('CMake Error') && next !== undefined && next !== '') causes.push(next);
    } else if (TOOL_RE.test(line)) {
      tools.push(line.trim());
    }
  });
  return [...causes, ...tools].slice(0, MAX_ERROR_LINES).map(printable);
}
