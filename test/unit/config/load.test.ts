import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { z } from 'zod';
import { ConfigError, loadConfig, type OptionSpec } from '../../../src/config/index.js';
import { joined } from '../../helpers/pattern.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  test('runs on defaults without a file: state under ./var', () => {
    const config = loadConfig({ env: {}, cwd: '/srv/here' });
    assert.equal(config.state_dir, '/srv/here/var');
    assert.equal(config.rounds, 5);
    assert.deepEqual(config.targets, {});
  });

  test('under systemd the state lives in STATE_DIRECTORY', () => {
    const config = loadConfig({ env: { STATE_DIRECTORY: '/var/lib/qpswatch' }, cwd: '/' });
    assert.equal(config.state_dir, '/var/lib/qpswatch');
  });

  test('defaults are fresh objects for every load', () => {
    const a = loadConfig({ env: {}, cwd: '/' });
    (a.targets as Record<string, unknown>)['x'] = 1;
    assert.deepEqual(loadConfig({ env: {}, cwd: '/' }).targets, {});
  });

  test('layers: defaults < file < environment < command line', () => {
    const file = writeConfig('layers.yaml', 'rounds: 4\nserver_port: 3400\nlog_level: warn\n');
    const config = loadConfig({
      file,
      env: { QPSWATCH_SERVER_PORT: '3500', QPSWATCH_LOG_LEVEL: 'debug' },
      cwd: '/',
      overrides: { log_level: 'error' },
    });
    assert.equal(config.rounds, 4);
    assert.equal(config.server_port, 3500);
    assert.equal(config.log_level, 'error');
  });

  test('relative paths in a file are read from its folder', () => {
    const file = writeConfig('paths.yaml', 'state_dir: ./state\n');
    assert.equal(loadConfig({ file, env: {}, cwd: '/' }).state_dir, join(dir, 'state'));
  });

  test('structured options take JSON from the environment', () => {
    const targets = { a: { kind: 'installed', flavor: 'mariadb', basedir: '/usr', server_profile: 'relaxed' } };
    const config = loadConfig({ env: { QPSWATCH_TARGETS: JSON.stringify(targets) }, cwd: '/' });
    assert.deepEqual(config.targets, targets);
  });
});

describe('loadConfig errors name the source, the field, the value and what is expected', () => {
  const cases: Array<{ name: string; yaml: string; expected: RegExp }> = [
    {
      name: 'wrong type',
      yaml: 'server_port: abc\n',
      expected: /server_port = "abc": expected an integer from 0 to 65535/,
    },
    { name: 'out of range', yaml: 'rounds: 0\n', expected: /rounds = 0: expected an integer from 1 to 100/ },
    {
      name: 'unknown key with a guess',
      yaml: 'stat_dir: /x\n',
      expected: /unknown option 'stat_dir': did you mean 'state_dir'\?/,
    },
    {
      name: 'unknown key without a guess',
      yaml: 'colour: blue\n',
      expected: /unknown option 'colour': see `qpswatch config options`/,
    },
    { name: 'bad enum', yaml: 'log_level: loud\n', expected: /log_level = "loud": expected one of trace, debug, info/ },
    {
      name: 'nested enum',
      yaml: 'targets:\n  a:\n    kind: installed\n    flavor: maria\n    basedir: /usr\n    server_profile: relaxed\n',
      expected: /targets\.a\.flavor = "maria": expected one of mariadb, mysql, percona/,
    },
    {
      name: 'nested unknown key',
      yaml:
        'targets:\n  a:\n    kind: installed\n    flavor: mariadb\n    basdir: ' +
        '/usr\n    binary: /usr/sbin/mariadbd\n    server_profile: relaxed\n',
      expected: /targets\.a: unknown key 'basdir'/,
    },
    { name: 'not YAML', yaml: 'a: [1, 2\n', expected: /: line 2: not valid YAML \(/ },
    { name: 'not a map', yaml: '- 1\n- 2\n', expected: /top level must be a map/ },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const file = writeConfig(`${c.name.replace(/\W/g, '-')}.yaml`, c.yaml);
      const problems = problemsOf(() => loadConfig({ file, env: {}, cwd: '/' }));
      assert.ok(
        problems.some((p) => c.expected.test(p)),
        problems.join('\n'),
      );
      assert.ok(
        problems.every((p) => p.startsWith(file) || p.startsWith('config file')),
        problems.join('\n'),
      );
    });
  }

  test('every problem is reported, not only the first', () => {
    const file = writeConfig('many.yaml', 'rounds: x\nserver_port: -1\nbogus: 1\n');
    assert.equal(problemsOf(() => loadConfig({ file, env: {}, cwd: '/' })).length, 3);
  });

  test('a bad environment value names the variable', () => {
    const problems = problemsOf(() => loadConfig({ env: { QPSWATCH_ROUNDS: 'many' }, cwd: '/' }));
    assert.deepEqual(problems, ['environment QPSWATCH_ROUNDS = "many": expected an integer from 1 to 100']);
  });

  test('a missing file says so and how to fix it', () => {
    const problems = problemsOf(() => loadConfig({ file: join(dir, 'absent.yaml'), env: {}, cwd: '/' }));
    assert.match(problems[0]!, /cannot be read \(ENOENT\): check the path given to --config/);
  });
});

describe('secrets', () => {
  const table: Record<string, OptionSpec<unknown>> = {
    smtp_password: {
      name: 'smtp_password',
      schema: z.string().optional(),
      default: () => undefined,
      doc: 'x',
      expected: 'text',
      envFormat: 'text',
      secret: true,
    },
  };

  test('are refused in the YAML file', () => {
    const file = writeConfig('secret-inline.yaml', 'smtp_password: hunter2\n');
    const problems = problemsOf(() => loadConfig({ file, env: {}, cwd: '/' }, table));
    assert.match(
      problems[0]!,
      joined(
        /smtp_password is a secret and is never read from the config /,
        /file: set QPSWATCH_SMTP_PASSWORD or smtp_password_file/,
      ),
    );
    assert.doesNotMatch(problems.join(), /hunter2/);
  });

  test('come from the environment', () => {
    assert.equal(
      loadConfig({ env: { QPSWATCH_SMTP_PASSWORD: 's3' }, cwd: '/' }, table)['smtp_password' as never],
      's3',
    );
  });

  test('come from a file the config names, relative to the config', () => {
    writeFileSync(join(dir, 'smtp.secret'), 'from-file\n', { mode: 0o600 });
    const file = writeConfig('secret-file.yaml', 'smtp_password_file: smtp.secret\n');
    assert.equal(loadConfig({ file, env: {}, cwd: '/' }, table)['smtp_password' as never], 'from-file');
  });

  test('a secret file every user may read is refused in one line, the secret never read', () => {
    writeFileSync(join(dir, 'open.secret'), 'from-file\n');
    chmodSync(join(dir, 'open.secret'), 0o644);
    const file = writeConfig('secret-open.yaml', 'smtp_password_file: open.secret\n');
    assert.deepEqual(
      problemsOf(() => loadConfig({ file, env: {}, cwd: '/' }, table)),
      [
        `smtp_password_file ${join(dir, 'open.secret')} is readable by every user (mode 0644): the secret is theirs ` +
          `too; chmod o-r ${join(dir, 'open.secret')}, and change the secret`,
      ],
    );
  });

  test('an unreadable secret file is named', () => {
    const file = writeConfig('secret-missing.yaml', 'smtp_password_file: nope.secret\n');
    assert.match(
      problemsOf(() => loadConfig({ file, env: {}, cwd: '/' }, table))[0]!,
      /smtp_password_file = ".*nope\.secret": cannot be read \(ENOENT\)/,
    );
  });
});

describe('a token in a config file every user can read', () => {
  const upstreams = (remote: string): string =>
    `upstreams:\n  - name: mariadb\n    remote: '${remote}'\n    flavor: ` +
    `mariadb\n    series: "10.11"\n    build_profile: mariadb-rel\n    ` +
    `server_profile: relaxed\n`;

  test('is refused in one line naming the upstream, the mode and the fix, the token hidden', () => {
    const file = writeConfig('token-0644.yaml', upstreams('https://bob:tok-1a2b@github.com/MariaDB/server.git'));
    chmodSync(file, 0o644);
    const problems = problemsOf(() => loadConfig({ file, env: {}, cwd: dir }));
    assert.equal(problems.length, 1);
    assert.ok(!problems[0]!.includes('tok-1a2b'), problems[0]);
    assert.match(
      problems[0]!,
      joined(
        /upstreams\[0\] "mariadb": remote = /,
        /"https:\/\/\*\*\*@github\.com\/MariaDB\/server\.git" holds /,
        /credentials, and the file is readable by every user \(mode /,
        /0644\): make it private \(chown root:qpswatch, chmod 0640\), /,
        /or move the upstreams to QPSWATCH_UPSTREAMS/,
      ),
    );
  });

  test("is read from a private file; a URL without one, or with ssh's user name, from any file", () => {
    const file = writeConfig('token-0640.yaml', upstreams('https://bob:tok-1a2b@github.com/MariaDB/server.git'));
    chmodSync(file, 0o640);
    assert.equal(loadConfig({ file, env: {}, cwd: dir }).upstreams.length, 1);
    for (const remote of ['https://github.com/MariaDB/server.git', 'ssh://git@github.com/MariaDB/server.git']) {
      const open = writeConfig('open.yaml', upstreams(remote));
      chmodSync(open, 0o644);
      assert.equal(loadConfig({ file: open, env: {}, cwd: dir }).upstreams.length, 1);
    }
  });
});

describe('messages that say what is wrong in words', () => {
  test('a target named with shell characters: the key is named, the value is not shown, with the fix', () => {
    const file = writeConfig(
      'bad-key.yaml',
      'targets:\n  "a;touch x":\n    kind: installed\n    flavor: mariadb\n   ' +
        ' basedir: /usr\n    server_profile: relaxed\n',
    );
    assert.deepEqual(
      problemsOf(() => loadConfig({ file, env: {}, cwd: dir })),
      [
        `${file}: targets: the key "a;touch x" is refused: a target name is ` +
          `1-64 letters, digits, ".", "_" or "-", starting with a letter or ` +
          `digit: rename it, e.g. "relaxed"`,
      ],
    );
  });

  test('a bad server_profile reads as a name rule, not as a regular expression', () => {
    const file = writeConfig(
      'bad-profile.yaml',
      'targets:\n  t:\n    kind: installed\n    flavor: mariadb\n    basedir: ' +
        '/usr\n    server_profile: "Bad Profile"\n',
    );
    const [problem] = problemsOf(() => loadConfig({ file, env: {}, cwd: dir }));
    assert.match(problem!, /targets\.t\.server_profile = "Bad Profile": expected a server profile name \(1-64 letters/);
    assert.doesNotMatch(problem!, /pattern|\^\[/);
  });

  test('alpha: 0 says what is true of the bounds (both left out)', () => {
    const file = writeConfig('alpha.yaml', 'alpha: 0\n');
    assert.deepEqual(
      problemsOf(() => loadConfig({ file, env: {}, cwd: dir })),
      [`${file}: alpha = 0: expected a number greater than 0 and less than 0.5`],
    );
  });
});
