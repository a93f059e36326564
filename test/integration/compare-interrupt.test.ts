import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { projectRoot } from '../helpers/paths.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * A session stopped half-way (Ctrl-C) stops sysbench and mysqld by escalation, stays visible as interrupted, and
 * none of its samples count.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-interrupt-')));
const stateDir = join(dir, 'state');
after(() => rmSync(dir, { recursive: true, force: true }));

/** mysqld processes whose command line names this test's folder. */
function serversOfThisTest(): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
        return cmd.includes('mariadbd') && cmd.includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

test(
  'SIGINT in the middle of a test leaves the session interrupted, its ' + 'samples unused, and no server running',
  async () => {
    const config = join(dir, 'qpswatch.yaml');
    // 2 rounds reach a p-value of 1/6, so alpha 0.2 lets the session start; it is stopped in round 1.
    writeFileSync(
      config,
      `state_dir: ${stateDir}\n` +
        `server_profiles_dir: ${testServerProfilesDir()}\nlog_level: info\nalpha: 0.2\ntargets:\n  a: { ` +
        `kind: installed, flavor: mariadb, basedir: /usr, server_profile: ` +
        `relaxed }\n`,
    );
    const suite = join(dir, 'long.yaml');
    writeFileSync(
      suite,
      'name: long\ndescription: a short test, then a long one to stop\nload: { tables: 1, table_size: 1000 }\n' +
        'warmup: { script: oltp_point_select, seconds: 1, threads: 1 }\n' +
        ('tests:\n  - { name: point-query, script: oltp_point_select, seconds: ' +
          '1, threads: [1] }\n  - { name: long, script: oltp_read_only, seconds: ' +
          '120, threads: [1] }\n'),
    );
    const child = spawn(
      process.execPath,
      [
        join(projectRoot, 'bin', 'qpswatch.js'),
        '--config',
        config,
        '--log-format',
        'json',
        'compare',
        '--baseline',
        'a',
        '--candidate',
        'a',
        '--suite',
        suite,
        '--rounds',
        '2',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    const stopped = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        // The long test has started: stop the session in the middle of it.
        if (stderr.includes('"test 2 of 2: long t1"')) resolve();
      });
    });
    const sentAt = Date.now();
    child.kill('SIGINT');
    const code = await stopped;
    assert.notEqual(code, 0);
    assert.ok(Date.now() - sentAt < 60_000, 'stopped well before the test would have ended');
    assert.deepEqual(serversOfThisTest(), []);

    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      const [session] = await store.listSessions({ limit: 1 });
      assert.equal(session?.state, 'interrupted');
      assert.equal(
        (await store.samplesForSession(session.id)).length,
        1,
        'the sample measured before the stop is kept',
      );
      assert.deepEqual(await store.completedSamples(session.id), []);
    } finally {
      await store.close();
    }
  },
);
