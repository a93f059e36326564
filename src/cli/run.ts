import { fstatSync } from 'node:fs';
import { isJournalStream } from '../log/index.js';
import { main } from './main.js';

/** The process edge: the only place that reads process.argv and process.env and sets the exit code. */
const controller = new AbortController();
let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    signals += 1;
    // The first signal stops the work by escalation and lets it record itself; a second one does not wait.
    if (signals > 1) process.exit(130);
    controller.abort(new Error(`stopped by ${signal}`));
  });
}

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
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
