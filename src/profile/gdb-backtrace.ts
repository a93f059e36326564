import type { FoldedStack } from '../model/index.js';
import { foldStacks } from './fold.js';

/** `#3  0x00007f... in name (args) at file.c:12`, or without the address for an inlined frame. */
const FRAME_LINE = /^#\d+\s+(?:0x[0-9a-f]+\s+in\s+)?(.*)$/;

/**
 * The folded stacks of gdb's `thread apply all bt`, run any number of times (a poor man's profiler): every thread's
 * backtrace is one sample. Frames are listed innermost first; each is named without its argument list.
 */
export function parseGdbBacktraces(text: string): FoldedStack[] {
  const stacks: string[][] = [];
  let frames: string[] = [];
  const flush = (): void => {
    if (frames.length > 0) stacks.push(frames.reverse());
    frames = [];
  };
  for (const line of text.split('\n')) {
    const m = FRAME_LINE.exec(line);
    if (m !== null) frames.push(gdbFrame(m[1]!));
    else if (line.startsWith('Thread ') || line.trim() === '') flush();
  }
  flush();
  return foldStacks(stacks);
}

/** `do_command(THD*, bool) (thd=0x1) at sql_parse.cc:1` → do_command; `?? ()` → [unknown]. */
export function gdbFrame(text: string): string {
  const cut = text.indexOf(' (');
  const name = stripArguments(cut >= 0 ? text.slice(0, cut) : text).trim();
  return name === '??' || name === '' ? '[unknown]' : name;
}

/** A demangled C++ name's trailing parameter list, `(CONNECT*, bool)`, removed with its nesting. */
function stripArguments(name: string): string {
  if (!name.endsWith(')')) return name;
  let depth = 0;
  for (let i = name.length - 1; i >= 0; i--) {
    if (name[i] === ')') depth++;
    else if (name[i] === '(' && --depth === 0) return i > 0 ? name.slice(0, i) : name;
  }
  return name;
}
