import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { showConfig } from '../../../src/cli/config-command.js';
import { loadConfig } from '../../../src/config/index.js';

describe('config show', () => {
  const upstreams = JSON.stringify([
    { name: 'a', remote: 'https://deploy:tok-5e6f@git.example.org/server.git', flavor: 'mariadb', series: '10.11' },
    { name: 'b', remote: 'ssh://build:pw-5e6f@git.example.org/mysql.git', flavor: 'mysql', series: '8.0' },
  ]);

  const cases: Array<[what: string, env: Record<string, string>, password: string]> = [
    ['no password', {}, '(not set)'],
    ['an empty password', { QPSWATCH_SMTP_PASSWORD: '' }, '(not set)'],
    ['a password', { QPSWATCH_SMTP_PASSWORD: 'pw-7a8b' }, '(set)'],
  ];
  for (const [what, env, password] of cases) {
    test(`${what}: smtp_password is ${password}, never its value`, () => {
      const shown = showConfig(loadConfig({ env: { ...env, QPSWATCH_UPSTREAMS: upstreams }, cwd: '/tmp' }));
      const parsed = JSON.parse(shown) as Record<string, unknown>;
      assert.equal(parsed['smtp_password'], password);
      assert.ok(!shown.includes('pw-7a8b'));
    });
  }

  test('a remote keeps its host and path and loses its token or password', () => {
    const shown = showConfig(loadConfig({ env: { QPSWATCH_UPSTREAMS: upstreams }, cwd: '/tmp' }));
    const remotes = (JSON.parse(shown) as { upstreams: Array<{ remote: string }> }).upstreams.map((u) => u.remote);
    assert.deepEqual(remotes, ['https://***@git.example.org/server.git', 'ssh://build:***@git.example.org/mysql.git']);
    assert.ok(!shown.includes('5e6f'));
  });
});
