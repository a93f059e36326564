import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultSqlitePath, openStore, type ProfileRecord } from '../../src/store/index.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * qpswatch profile end to end on this host's MariaDB: relaxed commits against fsync at every commit, an update test
 * under perf on each server. The durable server's extra time is the fsync path of the redo log and the binlog, so
 * among the functions whose share of the samples grew most there must be one of it.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-profile-')));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const suiteFile = join(dir, 'tiny.yaml');

writeFileSync(
  configFile,
  `state_dir: ${stateDir}
server_profiles_dir: ${testServerProfilesDir()}
log_level: info
# The assertion is about shares of samples, not speed: the profile need not wait for a benchmark holding the host.
host_lock: ${join(dir, 'host.lock')}
targets:
  relaxed: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }
  durable: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: durable }
`,
);
writeFileSync(
  suiteFile,
  `name: tiny-profile
description: one write test
load: { tables: 1, table_size: 2000 }
warmup: { script: oltp_read_only, seconds: 1, threads: 1 }
defaults: { seconds: 5, threads: [1] }
tests:
  - name: update-index
    script: oltp_update_index
`,
);

after(() => rmSync(dir, { recursive: true, force: true }));

/** Frames of the commit's fsync path, from libc's call down to the filesystem's, and InnoDB's and the binlog's own. */
const FSYNC_PATH = new RegExp(
  '^(' +
    [
      'fdatasync',
      'fsync',
      '__x64_sys_fdatasync',
      '__x64_sys_fsync',
      'do_fsync',
      'vfs_fsync_range',
      'ext4_sync_file',
      'xfs_file_fsync',
      'file_write_and_wait_range',
      'os_file_flush\\w*',
      'log_write_up_to',
      'fil_flush\\w*',
      'my_sync',
      'MYSQL_BIN_LOG::flush_and_sync',
    ].join('|') +
    ')$',
);

const TOP = 12;

describe('qpswatch profile, durable against relaxed commits', () => {
  let result: CliResult;
  let profile: ProfileRecord;

  before(async () => {
    result = await runCli([
      '--config',
      configFile,
      'profile',
      '--baseline',
      'relaxed',
      '--suite',
      suiteFile,
      '--seconds',
      '5',
      'durable',
      'update-index',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const id = Number(/^profile (\d+)$/m.exec(result.stdout)?.[1]);
    const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(stateDir) });
    try {
      profile = (await store.getProfile(id))!;
    } finally {
      await store.close();
    }
  });

  test(`the fsync path is among the ${TOP} functions whose share grew most`, (t) => {
    const table = result.stdout.split('\n');
    const header = table.findIndex((l) => l.startsWith('function '));
    assert.ok(header >= 0, result.stdout);
    const top = table
      .slice(header + 1, header + 1 + TOP)
      .map((l) => l.split(/\s{2,}/)[0]!)
      .filter((name) => name !== '');
    t.diagnostic(`grew most: ${top.join(', ')}`);
    assert.ok(
      top.some((name) => FSYNC_PATH.test(name)),
      `no fsync-path frame among ${top.join(', ')}`,
    );
  });

  test('both sides were sampled by a profiler, and their folded stacks are stored', () => {
    assert.equal(profile.test, 'update-index');
    assert.equal(profile.baseline, 'relaxed');
    assert.equal(profile.candidate, 'durable');
    for (const stacks of [profile.baselineStacks, profile.candidateStacks]) {
      assert.ok(stacks.length > 0);
      assert.ok(stacks.every((s) => s.count > 0 && !s.stack.startsWith(';')));
    }
    assert.match(result.stdout, /B relaxed: \d+ samples \((perf|gdb)\); C durable: \d+ samples \((perf|gdb)\)/);
  });

  test('the flame graph and the page are written where the CLI says, as SVG and HTML with no script', () => {
    const svgPath = /^flame graph: (.+)$/m.exec(result.stdout)?.[1];
    const htmlPath = /^page: (.+)$/m.exec(result.stdout)?.[1];
    assert.ok(svgPath !== undefined && htmlPath !== undefined, result.stdout);
    const svg = readFileSync(svgPath, 'utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /<title>[^<]*: C \d+\.\d%, B \d+\.\d%/);
    const html = readFileSync(htmlPath, 'utf8');
    assert.ok(html.includes(svg.trim()));
    assert.doesNotMatch(html, /<script/i);
  });
});

describe('qpswatch profile, bad input', () => {
  const cli = (...args: string[]): Promise<CliResult> => runCli(['--config', configFile, 'profile', ...args]);

  test('a test the suite does not have is named with the ones it has', async () => {
    const r = await cli('--baseline', 'relaxed', '--suite', suiteFile, 'durable', 'no-such-test');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /test "no-such-test" is not in suite "tiny-profile": use one of update-index/);
  });

  test('an unknown profiler is refused with the ones there are', async () => {
    const r = await cli(
      '--baseline',
      'relaxed',
      '--suite',
      suiteFile,
      '--profiler',
      'dtrace',
      'durable',
      'update-index',
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--profiler "dtrace": expected auto, perf, gdb/);
  });

  test('a configured target as the candidate needs --baseline', async () => {
    const r = await cli('--suite', suiteFile, 'durable', 'update-index');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /"durable" is a configured target, not a release: give --baseline/);
  });
});
