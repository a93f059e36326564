import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli, type CliResult } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { joined } from '../helpers/pattern.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * `qpswatch calibrate` end to end, as a user runs it: this host's mariadbd (basedir /usr) against itself with the real
 * sysbench, a one-test suite of 1-second runs, half a minute of pairs; then `status` shows the stored calibration.
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-calibrate-')));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const suiteFile = join(dir, 'tiny.yaml');

writeFileSync(
  configFile,
  `state_dir: ${stateDir}
server_profiles_dir: ${testServerProfilesDir()}
log_level: info
targets:
  local: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: relaxed }
`,
);
writeFileSync(
  suiteFile,
  `name: tiny-calibration
description: one 1-second test on a small table
load: { tables: 1, table_size: 2000 }
warmup: { script: oltp_read_only, seconds: 1, threads: 1 }
defaults: { seconds: 1, threads: [1] }
tests:
  - name: point-query
    script: oltp_point_select
`,
);

after(() => rmSync(dir, { recursive: true, force: true }));

describe('qpswatch calibrate', () => {
  let result: CliResult;

  before(async () => {
    result = await runCli(['--config', configFile, 'calibrate', '--suite', suiteFile, '--budget', '0.5'], {
      timeoutMs: 110_000,
    });
  });

  test('prints the test with a finite pair noise, the pairs a 5% drop needs and the totals', () => {
    assert.equal(result.code, 0, result.stderr);
    const row = result.stdout.split('\n').find((l) => l.startsWith('point-query.t1'));
    assert.ok(row !== undefined, result.stdout);
    // test, pairs, pair noise, pair s, pairs for 5%, min for 5%, drop now, drop at the budget
    const cells = row.trim().split(/\s+/);
    assert.equal(cells.length, 8, row);
    const pairs = Number(cells[1]);
    assert.ok(Number.isInteger(pairs) && pairs >= 2, `pairs ${cells[1]}`);
    const noise = Number(cells[2]!.replace('%', ''));
    assert.ok(Number.isFinite(noise) && noise >= 0 && cells[2]!.endsWith('%'), `noise ${cells[2]}`);
    const pairSeconds = Number(cells[3]);
    assert.ok(pairSeconds >= 2 && pairSeconds < 30, `a pair of two 1-second runs took ${cells[3]} s`);
    assert.ok(Number.isInteger(Number(cells[4])) && Number(cells[4]) >= 2, `pairs for 5%: ${cells[4]}`);
    assert.ok(Number(cells[5]) > 0, `minutes for 5%: ${cells[5]}`);
    assert.match(
      result.stdout,
      joined(
        /a release at its budget of 30 min .*: \d+ pairs per test in /,
        /[\d.]+ min of pairs; expected detectable drop per test /,
        /\d+(-\d+)?%\./,
      ),
    );
    assert.match(result.stdout, /every test to 5%: .*~\d+ min of pairs per release\./);
  });

  test('progress goes to stderr: the sweeps of a session that spends its budget', () => {
    assert.match(result.stderr, /"msg":"sweep 2: 1 test\(s\) open"/);
    assert.match(result.stderr, /"stoppedBy":"budget"/);
  });

  test('status then shows the calibration of this host', async () => {
    const status = await runCli(['--config', configFile, 'status']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      joined(
        /calibrations of this host \(1\):\n {2}calibrated \d+ (s|min) /,
        /ago: tiny-calibration, pair noise \d+(-\d+)?%, 5% detectable /,
        /in \d+ pairs \(~\d+ min\)/,
      ),
    );
  });

  test('a config without targets is told how to name one, and nothing runs', async () => {
    const bare = join(dir, 'bare.yaml');
    writeFileSync(bare, `state_dir: ${join(dir, 'bare-state')}\n`);
    const r = await runCli(['--config', bare, 'calibrate', '--suite', suiteFile]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no target to calibrate: .*add one under targets: .* or give --target NAME/);
  });
});
