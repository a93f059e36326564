import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { INSTALL_MARKER } from '../../src/compile/index.js';
import { createLogger } from '../../src/log/index.js';
import { pruneAfterCheck } from '../../src/daemon/index.js';
import { defaultSqlitePath, openStore } from '../../src/store/index.js';
import { parseUpstream } from '../../src/upstream/index.js';
import { parseVersion, versionKey } from '../../src/version/index.js';
import { runCli } from '../helpers/cli.js';

/**
 * 15 installed builds across 2 upstreams, made through the store API with real install folders and markers (the
 * keep rules look only at the store and the folders, so no compiler is needed), then `prune --dry-run` and `prune`.
 * keep_builds is 3. mariadb-10.11: 10.11.1 to 10.11.8, base 10.11.1, last good 10.11.4 (accepted).
 * mysql-8.0: 8.0.30 to 8.0.36, base 8.0.30, last good 8.0.35 (accepted), which is also among the newest.
 */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-prune-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const stateDir = join(dir, 'state');
const config = join(dir, 'qpswatch.yaml');
const cli = (...args: string[]) => runCli(['--config', config, ...args], { cwd: dir, env: { QPSWATCH_ROOT: dir } });

const SERIES = [
  {
    upstream: 'mariadb-10.11',
    flavor: 'mariadb',
    tag: (v: string) => `mariadb-${v}`,
    versions: ['10.11.1', '10.11.2', '10.11.3', '10.11.4', '10.11.5', '10.11.6', '10.11.7', '10.11.8'],
    lastGood: '10.11.4',
  },
  {
    upstream: 'mysql-8.0',
    flavor: 'mysql',
    tag: (v: string) => `mysql-${v}`,
    versions: ['8.0.30', '8.0.31', '8.0.32', '8.0.33', '8.0.34', '8.0.35', '8.0.36'],
    lastGood: '8.0.35',
  },
];

const installIn = (state: string, tag: string): string => join(state, 'builds', keyOf(tag), 'install');
const installOf = (tag: string): string => installIn(stateDir, tag);
function keyOf(tag: string): string {
  return createHash('sha256').update(tag).digest('hex').slice(0, 16);
}

/** The 15 builds, installed under `state`, with each series' last good accepted. */
async function makeBuilds(state: string): Promise<void> {
  const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(state) });
  try {
    for (const s of SERIES) {
      const { added } = await store.recordReleases(
        s.versions.map((v) => ({
          upstream: s.upstream,
          flavor: s.flavor,
          tag: s.tag(v),
          commit: createHash('sha1').update(v).digest('hex'),
          version: v,
          versionKey: versionKey(parseVersion(v)),
        })),
      );
      for (const release of added) {
        const installDir = installIn(state, release.tag);
        mkdirSync(join(installDir, 'bin'), { recursive: true });
        writeFileSync(join(installDir, 'bin', 'mysqld'), '');
        writeFileSync(join(installDir, '..', INSTALL_MARKER), '{}');
        const build = await store.startBuild({
          releaseId: release.id,
          buildKey: keyOf(release.tag),
          profile: 'demo',
          compiler: 'cc 12',
          installDir,
          logFile: join(installDir, '..', 'build.log'),
          pid: process.pid,
        });
        await store.finishBuild(build.id);
      }
      const good = added.find((r) => r.version === s.lastGood)!;
      await store.triage({ releaseId: good.id, action: 'accept', who: 'test', reason: 'the last good release' });
    }
  } finally {
    await store.close();
  }
}

before(async () => {
  writeFileSync(
    config,
    `state_dir: ${stateDir}\nkeep_builds: 3\nhost_lock: ${join(dir, 'host.lock')}\nupstreams:\n` +
      (`  - { name: mariadb-10.11, remote: ${join(dir, 'none')}, flavor: ` +
        `mariadb, series: "10.11", base: "10.11.1", build_profile: demo, ` +
        `server_profile: relaxed }\n`) +
      (`  - { name: mysql-8.0, remote: ${join(dir, 'none')}, flavor: mysql, ` +
        `series: "8.0", base: "8.0.30", build_profile: demo, server_profile: ` +
        `relaxed }\n`),
  );
  await makeBuilds(stateDir);
});

const KEPT = [
  ['mariadb-10.11', 'mariadb-10.11.1', 'base'],
  ['mariadb-10.11', 'mariadb-10.11.4', 'last good'],
  ['mariadb-10.11', 'mariadb-10.11.6', 'newest'],
  ['mariadb-10.11', 'mariadb-10.11.7', 'newest'],
  ['mariadb-10.11', 'mariadb-10.11.8', 'newest'],
  ['mysql-8.0', 'mysql-8.0.30', 'base'],
  ['mysql-8.0', 'mysql-8.0.34', 'newest'],
  ['mysql-8.0', 'mysql-8.0.35', 'last good, newest'],
  ['mysql-8.0', 'mysql-8.0.36', 'newest'],
];
const REMOVED = [
  ['mariadb-10.11', 'mariadb-10.11.2'],
  ['mariadb-10.11', 'mariadb-10.11.3'],
  ['mariadb-10.11', 'mariadb-10.11.5'],
  ['mysql-8.0', 'mysql-8.0.31'],
  ['mysql-8.0', 'mysql-8.0.32'],
  ['mysql-8.0', 'mysql-8.0.33'],
];

/**
 * The listing's rows as [upstream, tag, reasons] or [upstream, tag], in the order they are printed within each kind.
 */
function rows(stdout: string, kind: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith(`${kind}  `) || l.startsWith(`${kind}    `))
    .map((l) =>
      l
        .slice(kind.length)
        .trim()
        .split('  ')
        .map((cell) => cell.trim()),
    );
}

describe('prune, on 15 builds of 2 upstreams with keep_builds 3', () => {
  test(
    '--dry-run lists exactly the newest 3, the base and the last good of ' +
      'each upstream as kept, the rest as to remove',
    async () => {
      const result = await cli('prune', '--dry-run');
      assert.equal(result.code, 0, result.stderr);
      const kept = rows(result.stdout, 'keep').map(([upstream, tag, reasons, path]) => {
        assert.equal(path, installOf(JSON.parse(tag!) as string));
        return [upstream, JSON.parse(tag!) as string, reasons];
      });
      assert.deepEqual(kept.sort(), [...KEPT].sort());
      const removed = rows(result.stdout, 'would remove').map(([upstream, tag]) => [
        upstream,
        JSON.parse(tag!) as string,
      ]);
      assert.deepEqual(removed.sort(), [...REMOVED].sort());
      assert.match(result.stdout, /^9 install\(s\) kept, 6 to remove \(dry run: nothing was deleted\)$/m);
      for (const s of SERIES)
        for (const v of s.versions) assert.ok(existsSync(installOf(s.tag(v))), `${v} is still there`);
    },
  );

  test('prune deletes what the dry run listed and nothing else; then nothing is left to remove', async () => {
    const result = await cli('prune');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^9 install\(s\) kept, 6 removed$/m);
    for (const [, tag] of REMOVED) assert.equal(existsSync(join(installOf(tag!), '..')), false, `${tag} removed`);
    for (const [, tag] of KEPT) assert.ok(existsSync(join(installOf(tag!), '..', INSTALL_MARKER)), `${tag} kept`);
    const again = await cli('prune', '--dry-run');
    assert.match(again.stdout, /^9 install\(s\) kept, 0 to remove/m);
  });
});

describe("the daemon's prune after a check, on the same 15 builds", () => {
  test(
    'a check of a mariadb release removes only what the keep rules drop in ' +
      'its series: base, last good and newest 3 stay',
    async () => {
      const state = join(dir, 'daemon-state');
      await makeBuilds(state);
      const upstreams = [
        parseUpstream({
          name: 'mariadb-10.11',
          remote: join(dir, 'none'),
          flavor: 'mariadb',
          series: '10.11',
          base: '10.11.1',
          build_profile: 'demo',
          server_profile: 'relaxed',
        }),
        parseUpstream({
          name: 'mysql-8.0',
          remote: join(dir, 'none'),
          flavor: 'mysql',
          series: '8.0',
          base: '8.0.30',
          build_profile: 'demo',
          server_profile: 'relaxed',
        }),
      ];
      const store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(state) });
      try {
        const checked = (await store.listReleases('mariadb-10.11')).find((r) => r.version === '10.11.8')!;
        const removed = await pruneAfterCheck(checked, store, upstreams, 3, state, createLogger('warn', 'json'));
        const mariadbRemoved = REMOVED.filter(([upstream]) => upstream === 'mariadb-10.11').map(([, tag]) =>
          join(installIn(state, tag!), '..'),
        );
        assert.deepEqual([...removed].sort(), [...mariadbRemoved].sort());
        for (const [upstream, tag] of KEPT)
          assert.ok(existsSync(join(installIn(state, tag!), '..', INSTALL_MARKER)), `${upstream} ${tag} kept`);
        for (const [upstream, tag] of REMOVED)
          assert.equal(
            existsSync(join(installIn(state, tag!), '..')),
            upstream !== 'mariadb-10.11',
            `${tag}: only the checked series is pruned`,
          );
      } finally {
        await store.close();
      }
    },
  );
});
