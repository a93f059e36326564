import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { loggerOptions } from '../../../src/log/index.js';
import { projectRoot } from '../../helpers/paths.js';

/**
 * Every log line carries `pid` (the logger's base: qpswatch's own pid). A field of the same name would make a
 * second `pid` key in the same JSON line, which most readers resolve to one of the two at random; the pid of a
 * server, child or stray process goes by its own name (serverPid, strayPid, ...).
 */
const LOG_CALL = /\.(?:trace|debug|info|warn|error|fatal|child)\(\s*\{([^}]*)\}/g;
const PID_KEY = /(?:^|[\s,{])pid\s*(?:[:,]|$)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('no log call in src/ passes a field named pid', () => {
  const offenders: string[] = [];
  for (const file of sources(join(projectRoot, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(LOG_CALL)) {
      if (PID_KEY.test(match[1]!)) offenders.push(`${file.slice(projectRoot.length + 1)}: ${match[0].slice(0, 80)}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the check finds what it looks for', () => {
  const hits = [
    'log.warn({ pid: this.pid, accepted }, ',
    'log.info({ pid, socket }, ',
    'log.child({ a: 1, pid })',
  ].filter((code) => [...code.matchAll(LOG_CALL)].some((m) => PID_KEY.test(m[1]!)));
  assert.equal(hits.length, 3);
  assert.equal(
    [...'log.info({ serverPid: 3, pids: [] }, '.matchAll(LOG_CALL)].some((m) => PID_KEY.test(m[1]!)),
    false,
  );
});

test("a line of the real logger has one pid key, the logger's own", () => {
  const lines: string[] = [];
  pino(loggerOptions('info', 'json'), { write: (line: string) => lines.push(line) }).info(
    { serverPid: 4242 },
    'server ready',
  );
  assert.equal(lines[0]!.match(/"pid":/g)?.length, 1);
  assert.equal((JSON.parse(lines[0]!) as { pid: number }).pid, process.pid);
});
