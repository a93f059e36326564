import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pino } from 'pino';
import { cleanUpKilledSessions } from '../../../src/server/index.js';
import type { SessionRecord } from '../../../src/store/index.js';

const root = mkdtempSync(join(tmpdir(), 'qpsw-killed-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A target's folder as a session leaves it while it runs: datadir, snapshot, tmp, files, password file, logs. */
function leftTarget(dir: string): string {
  for (const part of ['data', 'snapshot', 'tmp', 'files']) mkdirSync(join(dir, part), { recursive: true });
  writeFileSync(join(dir, 'data', 'ibdata1'), 'x');
  writeFileSync(join(dir, 'sysbench.cnf'), '[client]\npassword=secret\n', { mode: 0o600 });
  writeFileSync(join(dir, 'error.log'), 'started\n');
  writeFileSync(join(dir, 'my.cnf'), '[mysqld]\n');
  return dir;
}

test("a killed session's datadirs and password file are removed and said so; a running one's are left", async () => {
  const state = join(root, 'state');
  const killed = leftTarget(join(state, 'work', 'session-3', 'candidate', 'mariadb-10.11.9'));
  const running = leftTarget(join(state, 'work', 'session-4', 'baseline', 'mariadb-10.11.8'));
  // A profile run of a process that is gone (pid 0 is never one).
  const profile = leftTarget(join(state, 'work', 'profile-999999999-1', 'baseline', 'a'));
  const store = {
    listSessions: () => Promise.resolve([{ id: 4 } as SessionRecord]),
  };
  const lines: Array<{ msg: string; folder?: string }> = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as never) });
  const { cleaned } = await cleanUpKilledSessions({ stateDir: state, serverUser: '' }, store, log);
  assert.deepEqual(cleaned.sort(), ['profile-999999999-1', 'session-3']);
  for (const dir of [killed, profile]) {
    for (const part of ['data', 'snapshot', 'tmp', 'files', 'sysbench.cnf'])
      assert.ok(!existsSync(join(dir, part)), part);
    assert.ok(existsSync(join(dir, 'error.log')), 'the logs stay for people to read');
  }
  assert.ok(existsSync(join(running, 'sysbench.cnf')), "a running session's files are its own");
  assert.deepEqual(
    lines.map((l) => l.msg),
    Array(2).fill('a session cut off by a killed qpswatch left its datadirs and password files: removed them'),
  );
  // Nothing left: a second look says nothing.
  lines.length = 0;
  assert.deepEqual((await cleanUpKilledSessions({ stateDir: state, serverUser: '' }, store, log)).cleaned, []);
  assert.deepEqual(lines, []);
});
