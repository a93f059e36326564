import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { findConfigFile, loadConfig, servicePaths } from '../../../src/config/index.js';

/** A staged root (QPSWATCH_ROOT) stands for /, so these tests never read this machine's /etc/qpswatch. */
const root = mkdtempSync(join(tmpdir(), 'qpswatch-service-paths-'));
after(() => rmSync(root, { recursive: true, force: true }));
const env = { QPSWATCH_ROOT: root };

describe("the installed service's config and folders", () => {
  test("without the service's config, no file is read and state stays under ./var", () => {
    assert.equal(findConfigFile(undefined, env), undefined);
    const config = loadConfig({ file: findConfigFile(undefined, env), env, cwd: '/srv/here' });
    assert.equal(config.state_dir, '/srv/here/var');
    assert.equal(config.cache_dir, '/srv/here/var/cache');
  });

  test("with it, the service's config is read and state and cache default to the service's folders", () => {
    mkdirSync(join(root, 'etc', 'qpswatch'), { recursive: true });
    writeFileSync(join(root, 'etc', 'qpswatch', 'qpswatch.yaml'), 'rounds: 7\n');
    const file = findConfigFile(undefined, env);
    assert.equal(file, join(root, 'etc/qpswatch/qpswatch.yaml'));
    const config = loadConfig({ file, env, cwd: '/srv/here' });
    assert.equal(config.rounds, 7);
    assert.equal(config.state_dir, join(root, 'var/lib/qpswatch'));
    assert.equal(config.cache_dir, join(root, 'var/cache/qpswatch'));
  });

  test('--config and QPSWATCH_CONFIG come first, and another file keeps ./var', () => {
    const other = join(root, 'other.yaml');
    writeFileSync(other, 'rounds: 3\n');
    assert.equal(findConfigFile(other, env), other);
    assert.equal(findConfigFile(undefined, { ...env, QPSWATCH_CONFIG: other }), other);
    assert.equal(loadConfig({ file: other, env, cwd: '/srv/here' }).state_dir, '/srv/here/var');
  });

  test(
    "systemd's STATE_DIRECTORY and CACHE_DIRECTORY and the options " + "themselves win over the service's folders",
    () => {
      const file = servicePaths(env).config;
      const underSystemd = loadConfig({
        file,
        env: { ...env, STATE_DIRECTORY: '/run/s', CACHE_DIRECTORY: '/run/c' },
        cwd: '/',
      });
      assert.deepEqual([underSystemd.state_dir, underSystemd.cache_dir], ['/run/s', '/run/c']);
      const set = loadConfig({ file, env: { ...env, QPSWATCH_STATE_DIR: '/data/q' }, cwd: '/' });
      assert.equal(set.state_dir, '/data/q');
    },
  );

  test('without QPSWATCH_ROOT the paths are the real ones', () => {
    assert.deepEqual(servicePaths({}), {
      config: '/etc/qpswatch/qpswatch.yaml',
      stateDir: '/var/lib/qpswatch',
      cacheDir: '/var/cache/qpswatch',
    });
  });
});
