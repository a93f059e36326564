import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ComparisonView } from '../../src/model/index.js';
import { cpuQuotaAvailable, createCpuGroup, followServers, serverPids } from '../../scripts/bench/cpu-quota.js';
import { runCli } from '../helpers/cli.js';
import { letServerPass } from '../helpers/server-user.js';
import { testServerProfilesDir } from '../helpers/server-profiles.js';

/**
 * Drift, injected for real: one server against itself, each server in its own cgroup whose CPU quota is cut to the
 * same fifth of a CPU mid-session (the cgroup v1 cpu controller). QPS falls by times on both sides at once; pairs
 * seconds apart see the same host, so the session must still call every test ok, not unstable. Own groups, not one
 * shared: in a shared one the idle server's background work would spend the measured one's quota. Root only
 * (cgroups, as CI runs).
 */
const dir = letServerPass(mkdtempSync(join(tmpdir(), 'qpswatch-drift-')));
const stateDir = join(dir, 'state');
const configFile = join(dir, 'qpswatch.yaml');
const suiteFile = join(dir, 'tiny.yaml');
// Throttled servers' pairs of 1-second runs vary by 3 to 15%, more than quick sessions' 0.9 (config/quickstart.yaml)
// allows for in 61 pairs: one CI run saw point-query at 0.970 (0.893-1.060), undecided. The claim under test is that
// a drift which moves QPS by times on both sides leaves the ratio near 1, which 0.85 still tells apart.
writeFileSync(
  configFile,
  `state_dir: ${stateDir}\n` +
    `server_profiles_dir: ${testServerProfilesDir()}\n` +
    `log_level: warn\ninstance_seconds: 0\nthreshold: 0.85\ntargets:\n  ` +
    `a: { kind: installed, flavor: mariadb, basedir: /usr, server_profile: ` +
    `relaxed }\n`,
);
writeFileSync(
  suiteFile,
  'name: drift\ndescription: two read tests, pairs of 1-second runs\nload: { tables: 1, table_size: 2000 }\n' +
    'warmup: { script: oltp_read_only, seconds: 1, threads: 1 }\ndefaults: { seconds: 1, threads: [1] }\n' +
    ('tests:\n  - { name: point-query, script: oltp_point_select }\n  - { ' +
      'name: read-only, script: oltp_read_only, args: { range_size: 10 } }\n'),
);
after(() => rmSync(dir, { recursive: true, force: true }));

describe(
  'a drift that slows both servers alike',
  { skip: cpuQuotaAvailable() ? false : 'needs root and the cgroup v1 cpu controller' },
  () => {
    test('an A/A session whose CPU quota is cut mid-session is ok, not unstable', async () => {
      const groups = [
        createCpuGroup(`qpswatch-drift-b-${process.pid}`),
        createCpuGroup(`qpswatch-drift-c-${process.pid}`),
      ] as const;
      const controller = new AbortController();
      const seen: string[] = [];
      try {
        const session = runCli([
          '--config',
          configFile,
          'compare',
          '--baseline',
          'a',
          '--candidate',
          'a',
          '--suite',
          suiteFile,
          '--pairs',
          '61',
          '--format',
          'json',
        ]);
        // Each sweep starts both servers anew (instance_seconds 0): every new instance is moved into its group.
        const following = followServers(stateDir, { baseline: groups[0], candidate: groups[1] }, controller.signal);
        const drift = serverPids(stateDir, 180_000, controller.signal).then(async () => {
          await new Promise((resolve) => setTimeout(resolve, 15_000));
          for (const group of groups) group.setQuota(20);
          seen.push('quota cut');
        });
        const result = await session;
        controller.abort();
        await drift.catch(() => undefined);
        const moved = await following;
        assert.equal(result.code, 0, result.stderr);
        assert.ok(moved > 2, `server instances moved into the throttled groups: ${moved}`);
        assert.deepEqual(seen, ['quota cut'], 'the quota was cut while the session ran');
        const view = JSON.parse(result.stdout) as ComparisonView;
        for (const row of view.tests) {
          assert.equal(
            row.verdict?.kind,
            'ok',
            `${row.test}: ${row.verdict?.kind}, C/B ${row.relativeQps.toFixed(3)} ` +
              `[${row.verdict?.low.toFixed(3)}, ${row.verdict?.high?.toFixed(3)}]`,
          );
        }
        const spread = (row: ComparisonView['tests'][number]) => row.baseline.qpsMax / row.baseline.qpsMin;
        assert.ok(
          view.tests.some((row) => spread(row) > 1.5),
          `the drift moved QPS by ${view.tests.map((r) => spread(r).toFixed(2)).join(', ')}x`,
        );
      } finally {
        controller.abort();
        for (const group of groups) group.remove();
      }
    });
  },
);
