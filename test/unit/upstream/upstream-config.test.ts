import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { parseUpstream, UpstreamConfigError, UpstreamConfigSchema } from '../../../src/upstream/index.js';
import { joined } from '../../helpers/pattern.js';

const GOOD = {
  name: 'mariadb-10.11',
  remote: 'https://github.com/MariaDB/server.git',
  flavor: 'mariadb',
  series: '10.11',
  build_profile: 'mariadb-rel',
  server_profile: 'relaxed',
};

function problem(input: unknown): UpstreamConfigError {
  try {
    parseUpstream(input);
  } catch (err) {
    assert.ok(err instanceof UpstreamConfigError, `expected UpstreamConfigError, got ${String(err)}`);
    assert.doesNotMatch(err.message, /\n/);
    return err;
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
}

describe('parseUpstream', () => {
  test('a minimal entry: series parsed, no include or exclude, no min version', () => {
    const u = parseUpstream(GOOD);
    assert.equal(u.name, 'mariadb-10.11');
    assert.equal(u.remote, GOOD.remote);
    assert.equal(u.flavor, 'mariadb');
    assert.equal(u.series.text, '10.11');
    assert.deepEqual(
      u.series.comparators.map((c) => [c.op, c.bound]),
      [['=', [10, 11]]],
    );
    assert.deepEqual([u.include, u.exclude, u.minVersion], [[], [], undefined]);
  });

  test('every field, snake_case as in YAML', () => {
    const u = parseUpstream({
      name: 'ps-8.0',
      remote: 'git@github.com:percona/percona-server.git',
      flavor: 'percona',
      series: '>=8.0.30 <8.1',
      include: ['Percona-Server-8.0.*'],
      exclude: ['*-rc*'],
      min_version: '8.0.36-28',
      build_profile: 'mysql-rel',
      server_profile: 'small-server',
    });
    assert.deepEqual(
      u.series.comparators.map((c) => c.text),
      ['>=8.0.30', '<8.1'],
    );
    assert.deepEqual([u.include, u.exclude], [['Percona-Server-8.0.*'], ['*-rc*']]);
    assert.equal(u.minVersion?.text, '8.0.36-28');
    assert.deepEqual([u.buildProfile, u.serverProfile], ['mysql-rel', 'small-server']);
  });

  test('an unknown key names the key and lists the real ones', () => {
    const err = problem({ ...GOOD, minVersion: '10.11.6' });
    assert.equal(
      err.message,
      'upstream "mariadb-10.11": unknown key "minVersion": the keys are name, ' +
        'kind, remote, flavor, series, build_profile, server_profile, include, ' +
        'exclude, min_version, base, budget_minutes, patches',
    );
  });

  test('patches: absolute paths kept in order; none by default; a relative path is refused with the fix', () => {
    assert.deepEqual(parseUpstream(GOOD).patches, []);
    assert.deepEqual(parseUpstream({ ...GOOD, patches: ['/etc/qpswatch/b.patch', '/etc/qpswatch/a.patch'] }).patches, [
      '/etc/qpswatch/b.patch',
      '/etc/qpswatch/a.patch',
    ]);
    const err = problem({ ...GOOD, patches: ['fix.patch'] });
    assert.match(
      err.message,
      joined(
        /^upstream "mariadb-10\.11": patches\[0\] = "fix\.patch": /,
        /expected the absolute path of a patch file, e\.g\. /,
        /"\/etc\/qpswatch\/patches\/fix\.patch"$/,
      ),
    );
  });

  test('a series YAML read as a number (10.10 becomes 10.1) is refused with the fix', () => {
    const err = problem({ ...GOOD, series: 10.1 });
    assert.equal(
      err.message,
      'upstream "mariadb-10.11": series = 10.1: YAML read a number here; quote it, e.g. "10.11"',
    );
  });

  test('a series that is not a range names the part and shows the forms', () => {
    const err = problem({ ...GOOD, series: '>=10.x' });
    assert.match(
      err.message,
      joined(
        /^upstream "mariadb-10\.11": series = ">=10\.x": not an /,
        /operator followed by a version \(at ">=10\.x"\); write a /,
        /series such as "10\.11" or a range such as ">=8\.0\.30 /,
        /<8\.1"$/,
      ),
    );
  });

  test('a bad min_version', () => {
    assert.match(
      problem({ ...GOOD, min_version: '10.11' }).message,
      /min_version = "10\.11": expected MAJOR\.MINOR\.PATCH/,
    );
  });

  test('an unknown flavor lists the flavors', () => {
    assert.match(
      problem({ ...GOOD, flavor: 'postgres' }).message,
      /flavor = "postgres": expected one of mariadb, mysql, percona$/,
    );
  });

  test('missing fields are named, all on one line', () => {
    const err = problem({ name: 'x' });
    assert.match(
      err.message,
      /^upstream "x": remote = \(missing\): .*; flavor = \(missing\): .*; series = \(missing\): /,
    );
    assert.deepEqual(err.problems.length, 5);
  });

  const badRemotes = [
    '',
    '-oProxyCommand=touch x',
    '--upload-pack=touch x',
    'ext::sh -c touch% x',
    'server',
    './server',
    '~/src/server',
    'https://exa mple.com/x',
    'ssh://-oProxyCommand=x/y',
    'https://x.org/a\nb',
  ];
  for (const remote of badRemotes) {
    test(`remote ${JSON.stringify(remote)} is refused`, () => {
      assert.match(
        problem({ ...GOOD, remote }).message,
        joined(
          /remote = .*: expected an https:\/\/, http:\/\/, git:\/\/, /,
          /ssh:\/\/ or file:\/\/ URL, user@host:path, or an absolute /,
          /path$/,
        ),
      );
    });
  }

  const goodRemotes = [
    'https://github.com/MariaDB/server.git',
    'http://127.0.0.1:9/x.git',
    'git://git.example.org/server',
    'ssh://git@github.com/mysql/mysql-server.git',
    'git@github.com:MariaDB/server.git',
    'file:///srv/git/server.git',
    '/srv/git/server',
  ];
  for (const remote of goodRemotes) {
    test(`remote ${remote} is accepted`, () => {
      assert.equal(parseUpstream({ ...GOOD, remote }).remote, remote);
    });
  }

  test('names and patterns are checked', () => {
    assert.match(problem({ ...GOOD, name: 'a b' }).message, /^upstream "a b": name = "a b": expected 1-64 letters/);
    assert.match(problem({ ...GOOD, include: [''] }).message, /include\[0\] = "": is empty/);
    assert.match(
      problem({ ...GOOD, exclude: 'mariadb-*' }).message,
      /exclude = "mariadb-\*": expected a list of tag-name patterns/,
    );
  });

  test('not a map at all', () => {
    assert.match(problem('mariadb').message, /^upstream \(unnamed\): expected a map with the keys name, kind, remote/);
  });
});

describe('UpstreamConfigSchema in the option table', () => {
  test('a list of upstreams validates, and its output feeds parseUpstream', () => {
    const upstreams = z
      .array(UpstreamConfigSchema)
      .parse([GOOD, { ...GOOD, name: 'mysql-8.0', flavor: 'mysql', series: '8.0', min_version: '8.0.30' }]);
    assert.deepEqual(
      upstreams.map((u) => parseUpstream(u).name),
      ['mariadb-10.11', 'mysql-8.0'],
    );
  });

  test('issues carry a path and a message that says what is expected', () => {
    const result = z.array(UpstreamConfigSchema).safeParse([{ ...GOOD, series: 8.0 }]);
    assert.equal(result.success, false);
    assert.deepEqual(
      result.error?.issues.map((i) => [i.path, i.message]),
      [[[0, 'series'], 'YAML read a number here; quote it, e.g. "10.11"']],
    );
  });
});

describe('credentials in a remote or an index', () => {
  const TARBALL = {
    name: 'mariadb-tb',
    kind: 'tarball',
    index: 'https://archive.mariadb.org/',
    flavor: 'mariadb',
    series: '10.11',
    server_profile: 'relaxed',
  };
  const refused: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'a git remote over http://',
      { ...GOOD, remote: 'http://bob:tok-5e@git.example.org/server.git' },
      joined(
        /remote = "http:\/\/\*\*\*@git\.example\.org\/server\.git": /,
        /http:\/\/ would send its credentials in the clear: use /,
        /https:\/\//,
      ),
    ],
    [
      'a tarball index over http://',
      { ...TARBALL, index: 'http://tok-5e@mirror.example.org/' },
      /index = "http:\/\/\*\*\*@mirror\.example\.org\/": http:\/\/ would send its credentials in the clear/,
    ],
    [
      'a password in an ssh:// remote',
      { ...GOOD, remote: 'ssh://bob:tok-5e@git.example.org/server.git' },
      joined(
        /remote = /,
        /"ssh:\/\/bob:\*\*\*@git\.example\.org\/server\.git": ssh:\/\/ /,
        /takes no password from a URL .*: remove it, and log in with /,
        /a key/,
      ),
    ],
  ];
  for (const [what, input, message] of refused) {
    test(`refused in one line, the secret hidden: ${what}`, () => {
      const err = problem(input);
      assert.match(err.message, message);
      assert.ok(!err.message.includes('tok-5e'), err.message);
    });
  }

  test("accepted: https://, http:// to this host only (loopback is not the network), ssh's user name", () => {
    for (const remote of [
      'https://bob:tok@github.com/x.git',
      'http://bob:tok@127.0.0.1:8080/x.git',
      'http://tok@localhost/x.git',
      'http://bob:tok@[::1]:80/x.git',
      'ssh://git@github.com/x.git',
      'http://git.example.org/x.git',
    ]) {
      assert.equal(parseUpstream({ ...GOOD, remote }).remote, remote);
    }
    assert.equal(
      parseUpstream({ ...TARBALL, index: 'https://bob:tok@mirror.example.org/' }).remote,
      'https://bob:tok@mirror.example.org/',
    );
  });
});
