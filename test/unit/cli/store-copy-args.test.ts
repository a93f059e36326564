import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { storeCopyArgs } from '../../../src/cli/store-copy-args.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import { loadConfig } from '../../../src/config/index.js';

const config = (env: Record<string, string> = {}) =>
  loadConfig({ env: { QPSWATCH_STATE_DIR: '/srv/q', ...env }, cwd: '/work' });

const parse = (values: { from?: string; to?: string; 'batch-rows'?: string }, env: Record<string, string> = {}) =>
  storeCopyArgs(values, config(env), '/work', 'help');

describe('store copy arguments', () => {
  test('--from sqlite:PATH, relative to the working folder or absolute; default the state_dir store', () => {
    const to = 'mysql://qpsw@db.example/results';
    assert.equal(parse({ from: 'sqlite:state/q.sqlite', to }).from, '/work/state/q.sqlite');
    assert.equal(parse({ from: 'sqlite:/var/lib/q.sqlite', to }).from, '/var/lib/q.sqlite');
    assert.equal(parse({ from: 'sqlite:///var/lib/q.sqlite', to }).from, '/var/lib/q.sqlite');
    assert.equal(parse({ to }).from, '/srv/q/qpswatch.sqlite');
  });

  test('--to as store_url takes it, with TLS and the password from the config, never from the URL', () => {
    const args = parse(
      { to: 'mariadb://qpsw@db.example:3307/results', 'batch-rows': '500' },
      { QPSWATCH_STORE_PASSWORD: 'pw-1', QPSWATCH_STORE_TLS: 'verify', QPSWATCH_STORE_SOCKET: '/run/x.sock' },
    );
    assert.deepEqual(args.to, {
      backend: 'mysql',
      user: 'qpsw',
      host: 'db.example',
      port: 3307,
      database: 'results',
      password: 'pw-1',
      tls: 'verify',
    });
    assert.equal(args.batchRows, 500);
  });

  test("without --to, the config's MySQL store: socket, user and database", () => {
    const env = { QPSWATCH_STORE_BACKEND: 'mysql', QPSWATCH_STORE_SOCKET: '/run/m.sock', QPSWATCH_STORE_USER: 'u' };
    const { to } = parse({}, env);
    assert.deepEqual([to.socket, to.user, to.database], ['/run/m.sock', 'u', 'qpswatch']);
  });

  test('bad input names the flag, the value and the form expected; a password is never repeated', () => {
    const cases: Array<[{ from?: string; to?: string; 'batch-rows'?: string }, RegExp]> = [
      [{ to: 'postgres://u@h/d' }, /^--to "postgres:\/\/u@h\/d": unknown scheme postgres:; .*mysql:\/\/USER@HOST/],
      [{ to: 'sqlite:/x.sqlite' }, /unknown scheme sqlite:; the target is a MySQL or MariaDB store/],
      [{ to: 'db.example/results' }, /--to "db.example\/results": not a URL/],
      [{ to: 'mysql://u:Secret-9@h/d' }, /^--to "mysql:\/\/u:\*\*\*@h\/d": the URL holds a password/],
      [{ to: 'mysql://u@h/a/b' }, /expected mysql:\/\/USER@HOST\[:PORT\]\/DATABASE/],
      [
        { from: '/var/lib/q.sqlite', to: 'mysql://u@h/d' },
        /^--from "\/var\/lib\/q.sqlite": unknown scheme; .*sqlite:PATH/,
      ],
      [{ from: 'sqlite:', to: 'mysql://u@h/d' }, /^--from "sqlite:": no path/],
      [{}, /store copy needs --to mysql:\/\/USER@HOST.*store_backend: mysql/],
      [{ to: 'mysql://u@h/d', 'batch-rows': '0' }, /--batch-rows "0": expected a whole number/],
    ];
    for (const [values, message] of cases)
      assert.throws(
        () => parse(values),
        (err: unknown) => err instanceof UsageError && message.test(err.message) && !err.message.includes('Secret-9'),
        JSON.stringify(values),
      );
  });
});
