import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { releaseInstallDir, resolveTarget, StoredInstallPathError } from '../../../src/session/index.js';
import type { Store } from '../../../src/store/index.js';
import { parseUpstream } from '../../../src/upstream/index.js';
import { parseVersion, versionKey } from '../../../src/version/index.js';
import { projectRoot } from '../../helpers/paths.js';

/**
 * Whoever can write the store (a shared MySQL store, every host's qpswatch) must not choose the program root runs:
 * a built release runs from state_dir/builds/<key>/install, and a row naming another folder is refused in one line,
 * with nothing of that folder run. Run against each backend (SQLite here, MySQL in store-mysql.test.ts).
 */
export function storedInstallPathContract(backend: string, open: () => Promise<Store>): void {
  describe(`${backend}: the install folder of a built release`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'qpsw-install-path-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const marker = join(dir, 'ran');
    const upstream = parseUpstream({
      name: 'demo',
      remote: '/nonexistent',
      flavor: 'mariadb',
      series: '10.11',
      build_profile: 'demo',
      server_profile: 'relaxed',
    });

    /** A stand-in server at basedir: it answers --version, and leaves the marker when it runs at all. */
    function fakeServer(basedir: string): void {
      for (const [path, text] of [
        ['sbin/mariadbd', `#!/bin/sh\ntouch ${marker}\necho "mariadbd  Ver 10.11.2-MariaDB for debian-linux-gnu"\n`],
        ['scripts/mariadb-install-db', '#!/bin/sh\nexit 0\n'],
      ] as const) {
        mkdirSync(join(basedir, path, '..'), { recursive: true });
        writeFileSync(join(basedir, path), text);
        chmodSync(join(basedir, path), 0o755);
      }
    }

    async function builtRelease(store: Store, tag: string, key: string, installDir: string): Promise<void> {
      const version = parseVersion(tag.replace('mariadb-', ''));
      await store.recordReleases([
        {
          upstream: 'demo',
          flavor: 'mariadb',
          tag,
          commit: key.repeat(3).slice(0, 40),
          version: version.text,
          versionKey: versionKey(version),
        },
      ]);
      const release = (await store.findReleasesByTag(tag))[0]!;
      const build = await store.startBuild({
        releaseId: release.id,
        buildKey: key,
        profile: 'demo',
        compiler: 'cc',
        installDir,
        logFile: join(dir, `${key}.log`),
        pid: process.pid,
      });
      await store.finishBuild(build.id);
    }

    test('a row naming a folder outside state_dir is refused in one line; nothing there runs', async () => {
      const store = await open();
      try {
        const state = join(dir, 'state-a');
        const elsewhere = join(dir, 'elsewhere');
        fakeServer(elsewhere);
        await builtRelease(store, 'mariadb-10.11.2', 'aaaaaaaaaaaaaaaa', elsewhere);
        const sources = {
          stateDir: state,
          targets: {},
          serverProfilesDir: join(dir, 'none'),
          upstreams: [upstream],
          store,
        };
        await assert.rejects(resolveTarget('mariadb-10.11.2', sources), (err: unknown) => {
          assert.ok(err instanceof StoredInstallPathError, String(err));
          assert.equal(
            err.message,
            `build aaaaaaaaaaaaaaaa of "mariadb-10.11.2": the store names the install folder "${elsewhere}", not ` +
              `${join(state, 'builds', 'aaaaaaaaaaaaaaaa', 'install')} (state_dir and the build key): qpswatch ` +
              'never runs a path the store names; if state_dir moved, move builds/ with it, else rebuild the tag',
          );
          return true;
        });
        assert.ok(!existsSync(marker), 'the program the row named ran');
      } finally {
        await store.close();
      }
    });

    test('checked before use (bisect, check): the same refusal, the folder, or none for an unbuilt tag', async () => {
      const store = await open();
      try {
        const state = join(dir, 'state-c');
        const elsewhere = join(dir, 'elsewhere-c');
        fakeServer(elsewhere);
        await builtRelease(store, 'mariadb-10.11.4', 'cccccccccccccccc', elsewhere);
        const planted = (await store.findReleasesByTag('mariadb-10.11.4'))[0]!;
        await assert.rejects(
          releaseInstallDir(planted, upstream, { store, stateDir: state }),
          (err: unknown) => err instanceof StoredInstallPathError && err.stored === elsewhere,
        );
        const install = join(state, 'builds', 'dddddddddddddddd', 'install');
        await builtRelease(store, 'mariadb-10.11.5', 'dddddddddddddddd', install);
        const own = (await store.findReleasesByTag('mariadb-10.11.5'))[0]!;
        assert.equal(await releaseInstallDir(own, upstream, { store, stateDir: state }), install);
        await store.recordReleases([
          {
            upstream: 'demo',
            flavor: 'mariadb',
            tag: 'mariadb-10.11.6',
            commit: 'e'.repeat(40),
            version: '10.11.6',
            versionKey: versionKey(parseVersion('10.11.6')),
          },
        ]);
        const unbuilt = (await store.findReleasesByTag('mariadb-10.11.6'))[0]!;
        assert.equal(await releaseInstallDir(unbuilt, upstream, { store, stateDir: state }), undefined);
        assert.ok(!existsSync(marker), 'the program the row named ran');
      } finally {
        await store.close();
      }
    });

    test('a row naming the folder state_dir and the key make runs from there', async () => {
      const store = await open();
      try {
        const state = join(dir, 'state-b');
        const install = join(state, 'builds', 'bbbbbbbbbbbbbbbb', 'install');
        fakeServer(install);
        await builtRelease(store, 'mariadb-10.11.3', 'bbbbbbbbbbbbbbbb', install);
        const target = await resolveTarget('mariadb-10.11.3', {
          stateDir: state,
          targets: {},
          serverProfilesDir: join(projectRoot, 'config', 'server-profiles'),
          upstreams: [upstream],
          store,
        });
        assert.equal(target.binaries.basedir, install);
      } finally {
        await store.close();
        rmSync(marker, { force: true });
      }
    });
  });
}
