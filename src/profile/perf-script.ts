import { basename } from 'node:path';
import type { FoldedStack } from '../model/index.js';
import { foldStacks } from './fold.js';

/** A call-chain line of `perf script`: address, symbol (with +0xoffset), then the binary in parentheses. */
const FRAME_LINE = /^\s+([0-9a-f]+)\s+(.+?)\s+\(([^()]*)\)\s*$/;

/**
 * The folded stacks of `perf script` output (perf record -g): each sample is a header line at the start of a line,
 * then its call chain leaf first, one indented frame a line, and a blank line. A frame perf could not name is called
 * after its binary ([mariadbd]), so unnamed code is still told apart from the kernel's or libc's.
 */
export function parsePerfScript(text: string): FoldedStack[] {
  const stacks: string[][] = [];
  let frames: string[] | undefined;
  const flush = (): void => {
    if (frames !== undefined && frames.length > 0) stacks.push(frames.reverse());
    frames = undefined;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (!/^\s/.test(line)) {
      flush();
      frames = [];
      continue;
    }
    const m = FRAME_LINE.exec(line);
    if (m !== null && frames !== undefined) frames.push(perfFrame(m[2]!, m[3]!));
  }
  flush();
  return foldStacks(stacks);
}

function perfFrame(symbol: string, dso: string): string {
  const name = symbol.replace(/\+0x[0-9a-f]+$/, '');
  if (name !== '[unknown]') return name;
  return dso === '[unknown]' || dso === '' ? '[unknown]' : `[${basename(dso)}]`;
}
