import { fstatSync } from 'node:fs';
import { killAllChildren } from '../exec/index.js';
import { isJournalStream } from '../log/index.js';
import { main } from './main.js';

/** The process edge: the only place that reads process.argv and process.env and sets the exit code. */
// Nothing qpswatch writes (the state folder, the store, work folders, logs, reports) is for other users: folders 750,
// files 640 whatever the caller's umask, so a root shell's 022 does not leave the store readable to every user.
process.umask(0o027);

const controller = new AbortController();
let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    signals += 1;
    // The first signal stops the work by escalation and lets it record itself; a second one does not wait, but takes
    // every child's process group down with it (mysqld, sysbench, cmake would otherwise run on).
    if (signals > 1) {
      const killed = killAllChildren();
      process.stderr.write(
        `qpswatch: stopped at once by a second ` +
          `${signal}${killed > 0 ? `; killed ${killed} child process group(s)` : ''}\n`,
      );
      process.exit(130);
    }
    controller.abort(new Error(`stopped by ${signal}`));
  });
}

// A reader that goes away (`qpswatch report | head`, `qpswatch compare 2>&1 | head`) closes the pipe: what is left
// to print there is dropped, and the command still finishes, so a session or check still records itself, and its
// exit code says how it went. Any other write error is a real failure.
let stdoutClosed = false;
let stderrClosed = false;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  stdoutClosed = true;
});
process.stderr.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  stderrClosed = true;
});

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => stdoutClosed || process.stdout.write(text),
  stderr: (text) => stderrClosed || process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  ...(process.stdout.isTTY ? { stdoutColumns: process.stdout.columns } : {}),
  ...(process.stderr.isTTY ? { stderrColumns: () => process.stderr.columns } : {}),
  stderrIsJournal: isJournalStream(process.env['JOURNAL_STREAM'], stderrIdentity()),
  signal: controller.signal,
});

function stderrIdentity(): { dev: number; ino: number } | undefined {
  try {
    return fstatSync(2);
  } catch {
    return undefined;
  }
}
