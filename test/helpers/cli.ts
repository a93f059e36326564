import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from './paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the installed entry point (bin/qpswatch.js) as a user would, in a child process, so exit codes, stdout and
 * stderr are the real ones. Tests may spawn node directly; the code under test goes through src/exec.
 */
export function runCli(
  args: readonly string[],
  opts: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin', 'qpswatch.js'), ...args], {
      cwd: opts.cwd ?? projectRoot,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: process.env['HOME'] ?? '/',
        QPSWATCH_LOG_FORMAT: 'json',
        // The instructions lane adds minutes to every compare and check: the tests about it turn it on.
        QPSWATCH_INSTRUCTION_COUNTER: 'off',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 10 * 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The lines a person reads on stderr: the JSON log lines are progress, everything else is the message. */
export function messageLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('{'));
}
