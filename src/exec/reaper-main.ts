/**
 * The reaper's own process (see reaper.ts): it reads "+PGID" and "-PGID" lines on stdin, and when stdin ends (the
 * qpswatch that started it is gone, however it went: exit, SIGKILL, a crash) it kills every process group still
 * listed with SIGKILL, then exits. It runs in a session of its own, so the terminal's Ctrl-C never reaches it.
 */
const groups = new Set<number>();
let pending = '';

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isSafeInteger(pgid) || pgid <= 1) continue;
    if (line.startsWith('+')) groups.add(pgid);
    else if (line.startsWith('-')) groups.delete(pgid);
  }
});
process.stdin.on('end', () => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  process.exit(0);
});
