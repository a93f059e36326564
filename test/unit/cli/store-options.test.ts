import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { storeOptions } from '../../../src/cli/open-state-store.js';
import { ConfigError, loadConfig, parseStoreUrl } from '../../../src/config/index.js';

const root = mkdtempSync(join(tmpdir(), 'qpswatch-store-options-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('store options from the config', () => {
  test('store_url gives user, server, port and database; mariadb:// and a default port too', () => {
    assert.deepEqual(parseStoreUrl('mysql://qpsw@db.example:3307/results'), {
      user: 'qpsw',
      host: 'db.example',
      port: 3307,
      database: 'results',
    });
    assert.deepEqual(parseStoreUrl('mariadb://qpsw@[::1]/r'), { user: 'qpsw', host: '::1', port: 3306, database: 'r' });
    for (const bad of [
      'mysql://qpsw:pw@db/results',
      'mysql://qpsw:@db/results',
      'mysql://db/results',
      'mysql://qpsw@db/',
      'mysql://qpsw@db/a/b',
      'mysql://qpsw@db/results?ssl=1',
      'postgres://qpsw@db/results',
      'db.example/results',
    ])
      assert.equal(parseStoreUrl(bad), undefined, bad);
  });

  test('with store_backend sqlite the store is qpswatch.sqlite under state_dir', () => {
    const config = loadConfig({ env: { QPSWATCH_STATE_DIR: root }, cwd: root });
    assert.deepEqual(storeOptions(config), { backend: 'sqlite', path: join(root, 'qpswatch.sqlite'), readonly: false });
  });

  test('with store_backend mysql the URL, TLS and the password from its file make the options', () => {
    const secret = join(root, 'store-password');
    writeFileSync(secret, 'pw-from-file\n', { mode: 0o600 });
    const file = join(root, 'qpswatch.yaml');
    writeFileSync(
      file,
      'store_backend: mysql\nstore_url: mysql://qpsw@db.example:3307/results\nstore_tls: verify\n' +
        'store_tls_ca: ca.pem\nstore_password_file: store-password\n',
    );
    const config = loadConfig({ file, env: {}, cwd: '/' });
    assert.deepEqual(storeOptions(config, true), {
      backend: 'mysql',
      user: 'qpsw',
      host: 'db.example',
      port: 3307,
      database: 'results',
      password: 'pw-from-file',
      tls: 'verify',
      tlsCa: join(root, 'ca.pem'),
      readonly: true,
    });
  });

  test('without store_url the separate options are used, a socket before host and port', () => {
    const env = {
      QPSWATCH_STORE_BACKEND: 'mysql',
      QPSWATCH_STORE_SOCKET: '/run/mysqld/mysqld.sock',
      QPSWATCH_STORE_USER: 'bench',
      QPSWATCH_STORE_DATABASE: 'qpsw_results',
      QPSWATCH_STORE_PASSWORD: 'pw-from-env',
    };
    const options = storeOptions(loadConfig({ env, cwd: '/' }));
    assert.equal(options.backend, 'mysql');
    assert.deepEqual(options, {
      backend: 'mysql',
      user: 'bench',
      host: '127.0.0.1',
      port: 3306,
      database: 'qpsw_results',
      socket: '/run/mysqld/mysqld.sock',
      password: 'pw-from-env',
      tls: 'off',
      readonly: false,
    });
  });

  test('a password in the YAML, or in store_url, is refused without being shown', () => {
    const file = join(root, 'leaky.yaml');
    writeFileSync(file, 'store_backend: mysql\nstore_password: Leaky-pw-1\nstore_url: mysql://u:Leaky-pw-2@db/r\n');
    assert.throws(
      () => loadConfig({ file, env: {}, cwd: '/' }),
      (err: Error) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /store_password is a secret and is never read from the config file/);
        assert.match(err.message, /store_url = .*: expected a URL mysql:\/\/user@host:port\/database with no password/);
        assert.ok(!/Leaky-pw/.test(err.message), err.message);
        return true;
      },
    );
  });
});
