import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { stopLeftoverBuild } from '../../../src/compile/index.js';
import { processAlive } from '../../../src/exec/index.js';
import { silentLog } from '../../helpers/silent-log.js';

/**
 * Real processes in a real worktree: a cmake that a killed build left (started as exec starts a step: setsid) is
 * stopped; a person's own cmake run from a shell in the same worktree (a job leading its own group in the shell's
 * session) is not.
 */
const root = mkdtempSync(join(tmpdir(), 'qpsw-leftover-'));
const worktree = join(root, 'worktree');
const cmake = join(root, 'bin', 'cmake');
const children: ChildProcess[] = [];
mkdirSync(worktree);
mkdirSync(join(root, 'bin'));
symlinkSync(process.execPath, cmake);

after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

function started(child: ChildProcess): Promise<ChildProcess> {
  children.push(child);
  return new Promise((resolve, reject) =>
    child.once('spawn', () => setTimeout(() => resolve(child), 300)).once('error', reject),
  );
}

const RUN_ON = ['-e', 'setInterval(() => {}, 1000)', '--', '--build', '.'];

test("a killed build's cmake is stopped; a person's cmake job in the same worktree is left running", async () => {
  const leftover = await started(spawn(cmake, RUN_ON, { cwd: worktree, stdio: 'ignore', detached: true }));
  const persons = await started(
    spawn('perl', ['-e', 'setpgrp(0, 0) or die; exec { $ARGV[0] } @ARGV', cmake, ...RUN_ON], {
      cwd: worktree,
      stdio: 'ignore',
    }),
  );
  assert.deepEqual(await stopLeftoverBuild(worktree, silentLog), [leftover.pid]);
  assert.equal(processAlive(leftover.pid!), false);
  assert.equal(processAlive(persons.pid!), true, "a person's cmake survives");
});
