/**
 * Collects a child's output: the full text up to a cap (callers parse it) and the last lines (error messages quote
 * them).
 * The cap keeps a chatty child from growing the daemon's memory without bound.
 */
export class OutputCollector {
  private chunks: string[] = [];
  private size = 0;
  private truncated = false;
  private lastLines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxBytes: number,
    private readonly tailLines: number,
  ) {}

  push(text: string): void {
    if (this.size < this.maxBytes) {
      const room = this.maxBytes - this.size;
      const kept = text.length > room ? text.slice(0, room) : text;
      this.chunks.push(kept);
      this.size += kept.length;
      if (kept.length < text.length) this.truncated = true;
    } else {
      this.truncated = true;
    }
    this.keepTail(text);
  }

  private keepTail(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() !== '') this.lastLines.push(line);
    }
    if (this.lastLines.length > this.tailLines) this.lastLines.splice(0, this.lastLines.length - this.tailLines);
  }

  text(): string {
    return this.chunks.join('') + (this.truncated ? '\n[output truncated]\n' : '');
  }

  tail(): string[] {
    const lines = this.partial.trim() !== '' ? [...this.lastLines, this.partial] : [...this.lastLines];
    return lines.slice(-this.tailLines);
  }
}
