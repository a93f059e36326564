import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { projectRoot } from '../helpers/paths.js';

/**
 * journald cannot run here (PID 1 is not systemd), so this checks the bytes against its documented stream protocol
 * instead (systemd.exec, SyslogLevelPrefix=, on by default; sd-daemon(3)): a line that starts with `<N>` is filed
 * at priority N, and `journalctl -p warning` shows priorities 0 to 4. The real CLI runs in a child process whose
 * stderr is a pipe, with JOURNAL_STREAM set to that pipe's device:inode exactly as systemd sets it for a service.
 */
const work = mkdtempSync(join(tmpdir(), 'qpswatch-journal-'));
after(() => rmSync(work, { recursive: true, force: true }));

const PRIORITY_OF_LEVEL: Record<number, number> = { 10: 7, 20: 7, 30: 6, 40: 4, 50: 3, 60: 2 };
const EMERG_TO_WARNING = new Set([0, 1, 2, 3, 4]);

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
    cwd,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
}

/**
 * `qpswatch discover` over two upstreams: one whose remote is not there (an error) and one with no release tag in
 * its series (a warning), at log level debug. `journalStream` is what JOURNAL_STREAM is set to: 'pipe' for the
 * device:inode of the child's own stderr, as under systemd.
 */
function discover(journalStream: 'pipe' | string): Promise<{ code: number | null; stderr: string }> {
  const cli = [
    process.execPath,
    join(projectRoot, 'bin', 'qpswatch.js'),
    '--config',
    join(work, 'qpswatch.yaml'),
    '--log-level',
    'debug',
    'discover',
  ];
  // stat -L on /proc/self/fd/2 in the command substitution: stat's stderr is the same pipe the CLI then inherits.
  const value = journalStream === 'pipe' ? '$(stat -L -c %d:%i /proc/self/fd/2)' : `'${journalStream}'`;
  const script = `JOURNAL_STREAM=${value} exec "$@"`;
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', ...cli], {
      cwd: work,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: work },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('log lines under journald carry their syslog priority', () => {
  before(() => {
    const upstream = join(work, 'no-releases');
    mkdirSync(upstream);
    git(upstream, 'init', '-q');
    git(upstream, 'commit', '-q', '--allow-empty', '-m', 'first');
    git(upstream, 'tag', 'not-a-release');
    const entry = (name: string, remote: string): string =>
      `  - { name: ${name}, remote: ${remote}, flavor: mariadb, series: ` +
      `"10.11", build_profile: demo, server_profile: relaxed }\n`;
    writeFileSync(
      join(work, 'qpswatch.yaml'),
      `state_dir: ` +
        `${join(work, 'state')}\nupstreams:\n${entry('gone', join(work, 'missing'))}${entry('quiet', upstream)}`,
    );
  });

  test(
    'with stderr on the journal stream, every line starts with <N> for its ' + 'level: a warning <4>, an error <3>',
    async () => {
      const { stderr } = await discover('pipe');
      const lines = stderr.split('\n').filter((l) => l !== '');
      assert.ok(lines.length > 0, 'the command logged something');
      const seen = new Set<number>();
      for (const line of lines) {
        const match = /^<([0-7])>(.*)$/.exec(line);
        assert.ok(match !== null, `a line without a priority prefix: ${JSON.stringify(line)}`);
        const priority = Number(match[1]);
        if (match[2]!.startsWith('{')) {
          const record = JSON.parse(match[2]!) as { level: number; msg: string };
          assert.equal(priority, PRIORITY_OF_LEVEL[record.level], `${record.msg}: level ${record.level}`);
        } else {
          assert.equal(priority, 3, `the CLI's own last line is an error: ${line}`);
        }
        seen.add(priority);
      }
      assert.ok(seen.has(4), `a warning at <4> (the upstream with no releases) in:\n${stderr}`);
      assert.ok(seen.has(3), `an error at <3> (the remote that is not there) in:\n${stderr}`);
      assert.ok(seen.has(6) || seen.has(7), 'info or debug lines at <6> or <7>');
      // What `journalctl -p warning` shows: exactly the warning and error records, nothing at info or debug.
      const shown = lines.filter((l) => EMERG_TO_WARNING.has(Number(l[1])));
      assert.ok(shown.some((l) => /"level":40/.test(l)) && shown.some((l) => /"level":50/.test(l)));
      assert.deepEqual(
        shown.filter((l) => /"level":(10|20|30),/.test(l)),
        [],
      );
    },
  );

  test('journald strips the prefix, and what is left is the JSON record', async () => {
    const { stderr } = await discover('pipe');
    for (const line of stderr.split('\n').filter((l) => l.startsWith('<') && l.includes('{'))) {
      assert.doesNotThrow(() => JSON.parse(line.slice(3)), line);
    }
  });

  test('JOURNAL_STREAM inherited but stderr elsewhere (a shell in a service, 2>file): no prefixes', async () => {
    const { stderr } = await discover('1:2');
    assert.ok(stderr.length > 0);
    assert.deepEqual(
      stderr.split('\n').filter((l) => l.startsWith('<')),
      [],
    );
    assert.match(stderr, /^\{"level":40,/m);
  });
});
