import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BuildProfileError,
  cmakeFlagName,
  expandCmakeFlags,
  listBuildProfiles,
  loadBuildProfile,
  parseBuildProfile,
  profileFor,
  profileHash,
  type BuildProfile,
} from '../../../src/compile/index.js';
import { parseVersion, type Flavor } from '../../../src/version/index.js';

const SOURCE = '/x/p.yaml';

function parse(text: string) {
  return parseBuildProfile(text, 'p', SOURCE);
}

function rejects(text: string, message: string): void {
  assert.throws(
    () => parse(text),
    (err: unknown) => {
      assert.ok(err instanceof BuildProfileError, String(err));
      assert.equal(err.message, message);
      return true;
    },
  );
}

describe('parseBuildProfile', () => {
  test('fills the defaults and keeps the flags in file order', () => {
    const p = parse('description: d\ncmake_flags: [-DB=2, "-DA:BOOL=ON", "-DC=-O2 -g1"]\n');
    assert.deepEqual(
      { ...p },
      {
        name: 'p',
        source: SOURCE,
        description: 'd',
        generator: 'Unix Makefiles',
        cmakeFlags: ['-DB=2', '-DA:BOOL=ON', '-DC=-O2 -g1'],
        env: {},
        ccache: false,
        timeoutMinutes: 240,
        patches: [],
        packages: [],
        overrides: [],
      },
    );
  });

  test("patches are read relative to the profile's folder, in order; absolute paths stay", () => {
    const p = parse('description: d\npatches: [fix-1.patch, ../shared/fix-2.patch, /srv/patches/fix-3.patch]\n');
    assert.deepEqual(p.patches, ['/x/fix-1.patch', '/shared/fix-2.patch', '/srv/patches/fix-3.patch']);
  });

  test('reads every key', () => {
    const p = parse(
      'description: d\ngenerator: Ninja\nenv: { CC: gcc-12, CFLAGS: "-O2" ' +
        '}\njobs: 3\nccache: true\ntimeout_minutes: 30\n',
    );
    assert.equal(p.generator, 'Ninja');
    assert.deepEqual(p.env, { CC: 'gcc-12', CFLAGS: '-O2' });
    assert.equal(p.jobs, 3);
    assert.equal(p.ccache, true);
    assert.equal(p.timeoutMinutes, 30);
  });

  const cases: Array<[string, string, string]> = [
    [
      'an unknown generator',
      'description: d\ngenerator: Ninja2\n',
      'generator = "Ninja2": is not a known CMake generator; use one of: ' +
        '"Unix Makefiles", "Ninja" (or leave it out for "Unix Makefiles")',
    ],
    [
      'an unknown key',
      'description: d\nflags: []\n',
      'flags = []: is not a known key; the top-level keys are description, ' +
        'generator, cmake_flags, env, jobs, ccache, timeout_minutes, patches, packages and overrides',
    ],
    [
      'no description',
      'ccache: true\n',
      'description = (missing): is missing or not text; write one line that says what the profile is for',
    ],
    [
      'a flag without -D',
      'description: d\ncmake_flags: [CMAKE_BUILD_TYPE=Release]\n',
      'cmake_flags[0] = "CMAKE_BUILD_TYPE=Release": is not a -DNAME=value ' +
        'flag; write each flag as one list item "-DNAME=value", e.g. - ' +
        '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
    ],
    [
      'a flag for the install prefix',
      'description: d\ncmake_flags: [-DCMAKE_INSTALL_PREFIX=/opt]\n',
      'cmake_flags[0] = "-DCMAKE_INSTALL_PREFIX=/opt": sets ' +
        'CMAKE_INSTALL_PREFIX, which qpswatch sets itself; qpswatch installs ' +
        'every build under builds/<key>/install; remove the flag',
    ],
    [
      'a compiler launcher flag',
      'description: d\ncmake_flags: [-DCMAKE_CXX_COMPILER_LAUNCHER=ccache]\n',
      'cmake_flags[0] = "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache": sets ' +
        'CMAKE_CXX_COMPILER_LAUNCHER, which qpswatch sets itself; set ccache: ' +
        'true instead of the flag',
    ],
    [
      'a variable set twice',
      'description: d\ncmake_flags: [-DX=1, -DY=2, "-DX:STRING=3"]\n',
      'cmake_flags[2] = "-DX:STRING=3": sets X again (also cmake_flags[0]); keep one flag per variable',
    ],
    [
      'a number as an env value',
      'description: d\nenv: { MAKEFLAGS: 2 }\n',
      'env.MAKEFLAGS = 2: is not text (quote numbers: "2"); write environment ' +
        'variables as NAME: "value", e.g. CC: gcc-12',
    ],
    [
      'a bad env name',
      'description: d\nenv: { "A-B": x }\n',
      'env.A-B = "A-B": name is not an environment variable name; write ' +
        'environment variables as NAME: "value", e.g. CC: gcc-12',
    ],
    [
      'the ccache folder in env',
      'description: d\nenv: { CCACHE_DIR: /c }\n',
      'env.CCACHE_DIR = "/c": is set by qpswatch when ccache is on; remove ' +
        'CCACHE_DIR; the cache lives under the cache directory',
    ],
    [
      'zero jobs',
      'description: d\njobs: 0\n',
      'jobs = 0: is below 1; write a whole number of parallel compile jobs, or leave it out to use every CPU',
    ],
    ['ccache as text', 'description: d\nccache: "yes"\n', 'ccache = "yes": is not true or false; write true or false'],
    [
      'a negative timeout',
      'description: d\ntimeout_minutes: -5\n',
      'timeout_minutes = -5: is not above 0; write the longest a whole build may take, in minutes, e.g. 240',
    ],
    [
      'a package name that is not one',
      'description: d\npackages: [libfmt-dev, "lib fmt"]\n',
      'packages[1] = "lib fmt": is not a Debian package name; write each Debian package as one list item, e.g. - ' +
        'libfmt-dev',
    ],
    [
      'an override without versions',
      'description: d\noverrides: [{ cmake_flags: [-DA=1] }]\n',
      'overrides[0].versions = (missing): is not a version range; write a range such as ">=10.11" or a series such ' +
        'as "10.5"',
    ],
    [
      'an override whose range does not parse',
      'description: d\noverrides: [{ versions: "10.x", cmake_flags: [-DA=1] }]\n',
      'overrides[0].versions = "10.x": not an operator followed by a version (at "10.x"); write a range such as ' +
        '">=10.11" or a series such as "10.5"',
    ],
    [
      'an override that sets the install prefix',
      'description: d\noverrides: [{ versions: ">=10.5", cmake_flags: [-DCMAKE_INSTALL_PREFIX=/opt] }]\n',
      'overrides[0].cmake_flags[0] = "-DCMAKE_INSTALL_PREFIX=/opt": sets CMAKE_INSTALL_PREFIX, which qpswatch sets ' +
        'itself; qpswatch installs every build under builds/<key>/install; remove the flag',
    ],
    [
      'an override that sets the ccache folder',
      'description: d\noverrides: [{ versions: ">=10.5", env: { CCACHE_BASEDIR: /c } }]\n',
      'overrides[0].env.CCACHE_BASEDIR = "/c": is set by qpswatch when ccache is on; remove CCACHE_BASEDIR; the ' +
        'cache lives under the cache directory',
    ],
    [
      'an unknown key in an override',
      'description: d\noverrides: [{ versions: ">=10.5", set: { A: 1 } }]\n',
      'overrides[0].set = {"A":1}: is not a known key; an override has the keys versions, flavors (optional), ' +
        'cmake_flags, env, patches and packages, e.g. - { versions: ">=10.11", cmake_flags: [-DWITH_LIBFMT=system], ' +
        'packages: [libfmt-dev] }',
    ],
    [
      'a line break in a flag',
      'description: d\ncmake_flags: ["-DX=a\\nb"]\n',
      'cmake_flags[0] = "-DX=a\\nb": contains a line break or NUL; write each ' +
        'flag as one list item "-DNAME=value", e.g. - ' +
        '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
    ],
  ];
  for (const [what, text, message] of cases) {
    test(`refuses ${what} with one line naming file, field, value and fix`, () =>
      rejects(text, `build profile ${SOURCE}: ${message}`));
  }

  test('refuses YAML that does not parse', () => {
    assert.throws(
      () => parse('description: [\n'),
      (err: unknown) =>
        err instanceof BuildProfileError &&
        /^build profile \/x\/p\.yaml: \(top level\) = \(missing\): is not valid YAML \(.+\); fix the YAML syntax$/.test(
          err.message,
        ),
    );
  });
});

describe('profileFor', () => {
  const profile = parse(
    [
      'description: d',
      'cmake_flags: [-DA=1, -DB=2]',
      'env: { CC: gcc }',
      'patches: [base.patch]',
      'packages: [bison]',
      'overrides:',
      '  - { versions: ">=10.5", cmake_flags: [-DB=3, -DC=4], packages: [libpcre2-dev, bison] }',
      '  - { versions: ">=10.7", env: { CXX: g++ }, patches: [fmt.patch], packages: [libfmt-dev] }',
      '  - { versions: ">=8.0", flavors: [mysql], cmake_flags: [-DA=9] }',
      '',
    ].join('\n'),
  );
  const cases: Array<[string, string, { flags: string[]; env: object; patches: string[]; packages: string[] }]> = [
    [
      '10.4.30',
      'mariadb',
      { flags: ['-DA=1', '-DB=2'], env: { CC: 'gcc' }, patches: ['/x/base.patch'], packages: ['bison'] },
    ],
    [
      '10.5.23',
      'mariadb',
      {
        flags: ['-DA=1', '-DB=3', '-DC=4'],
        env: { CC: 'gcc' },
        patches: ['/x/base.patch'],
        packages: ['bison', 'libpcre2-dev'],
      },
    ],
    [
      '11.8.6',
      'mariadb',
      {
        flags: ['-DA=1', '-DB=3', '-DC=4'],
        env: { CC: 'gcc', CXX: 'g++' },
        patches: ['/x/base.patch', '/x/fmt.patch'],
        packages: ['bison', 'libpcre2-dev', 'libfmt-dev'],
      },
    ],
    // 8.0 is below 10.5: only the MySQL override, by its flavor, applies.
    [
      '8.0.36',
      'mysql',
      { flags: ['-DA=9', '-DB=2'], env: { CC: 'gcc' }, patches: ['/x/base.patch'], packages: ['bison'] },
    ],
    [
      '10.6.1',
      'mysql',
      {
        flags: ['-DA=9', '-DB=3', '-DC=4'],
        env: { CC: 'gcc' },
        patches: ['/x/base.patch'],
        packages: ['bison', 'libpcre2-dev'],
      },
    ],
  ];
  for (const [version, flavor, want] of cases) {
    test(`${flavor} ${version}: the overrides for its version, in file order; a flag replaces its variable's`, () => {
      const p = profileFor(profile, { flavor: flavor as Flavor, version: parseVersion(version) });
      assert.deepEqual({ flags: p.cmakeFlags, env: p.env, patches: p.patches, packages: p.packages }, want);
      assert.deepEqual(p.overrides, []);
    });
  }

  test('a version no override names keeps the key it had without overrides', () => {
    const plain = parse('description: d\ncmake_flags: [-DA=1, -DB=2]\nenv: { CC: gcc }\n');
    const resolved = profileFor(profile, { flavor: 'mariadb', version: parseVersion('10.4.30') });
    assert.equal(profileHash(resolved), profileHash(plain));
    const newer = profileFor(profile, { flavor: 'mariadb', version: parseVersion('10.5.23') });
    assert.notEqual(profileHash(newer), profileHash(plain));
  });

  test('the shipped MariaDB profiles give 10.11 the system libfmt and pcre2, and 10.4 neither', async () => {
    for (const name of ['mariadb-rel', 'mariadb-rel-nops', 'mariadb-rel-lean']) {
      const p = await loadBuildProfile(name);
      const at = (v: string): BuildProfile => profileFor(p, { flavor: 'mariadb', version: parseVersion(v) });
      assert.ok(at('10.11.18').cmakeFlags.includes('-DWITH_LIBFMT=system'), name);
      assert.ok(at('10.11.18').packages.includes('libfmt-dev'), name);
      assert.ok(at('10.5.23').cmakeFlags.includes('-DWITH_PCRE=system'), name);
      assert.ok(!at('10.5.23').cmakeFlags.includes('-DWITH_LIBFMT=system'), name);
      assert.ok(!at('10.4.30').cmakeFlags.some((f) => /WITH_(PCRE|LIBFMT)/.test(f)), name);
      assert.ok(at('10.4.30').cmakeFlags.includes('-DGROFF=GROFF-NOTFOUND'), name);
    }
  });
});

describe('loadBuildProfile', () => {
  test('loads every shipped profile, and the release profiles use ccache', async () => {
    const names = await listBuildProfiles();
    assert.deepEqual(names, [
      'demo',
      'demo-debug',
      'mariadb-rel',
      'mariadb-rel-lean',
      'mariadb-rel-nops',
      'mysql-rel',
      'mysql-rel-lean',
      'mysql-rel-nops',
    ]);
    for (const name of names) {
      const p = await loadBuildProfile(name);
      assert.equal(p.name, name);
      assert.equal(p.ccache, true, name);
    }
  });

  test('the no-perfschema profiles are their release profile plus the flags that leave it out', async () => {
    const mariadb = await loadBuildProfile('mariadb-rel');
    const mariadbNops = await loadBuildProfile('mariadb-rel-nops');
    assert.deepEqual(
      mariadbNops.cmakeFlags.filter((f) => !mariadb.cmakeFlags.includes(f)),
      ['-DPLUGIN_PERFSCHEMA=NO'],
    );
    const mysql = await loadBuildProfile('mysql-rel');
    const mysqlNops = await loadBuildProfile('mysql-rel-nops');
    // Each series gets the flags it knows: the engine switch for 5.x, the instrumentation switches for 8.0 on.
    const extra = (version: string, flavor: Flavor = 'mysql'): string[] => {
      const at = { flavor, version: parseVersion(version) };
      const base = profileFor(mysql, at).cmakeFlags;
      return profileFor(mysqlNops, at).cmakeFlags.filter((f) => !base.includes(f));
    };
    assert.deepEqual(extra('5.7.44'), ['-DWITH_PERFSCHEMA_STORAGE_ENGINE=OFF']);
    assert.ok(!extra('8.0.36').includes('-DWITH_PERFSCHEMA_STORAGE_ENGINE=OFF'));
    assert.equal(extra('8.0.36').filter((f) => /^-DDISABLE_PSI_[A-Z_]+=ON$/.test(f)).length, 19);
    assert.equal(extra('8.0.36-28', 'percona').length, 19, 'Percona 8.0 too');
    assert.ok(mysql.cmakeFlags.includes('-DWITH_BOOST={cache_dir}/boost'));
    assert.ok(mariadb.cmakeFlags.includes('-DWITH_WSREP=OFF'));
  });

  test(
    "the lean profiles are the no-perfschema ones plus the studies' other " +
      'flags (MariaDB: no optimizer trace switch)',
    async () => {
      const extra = async (lean: string, nops: string): Promise<string[]> => {
        const at = { flavor: lean.startsWith('mysql') ? ('mysql' as const) : ('mariadb' as const) };
        const version = parseVersion(lean.startsWith('mysql') ? '8.0.36' : '10.11.18');
        const [a, b] = [
          profileFor(await loadBuildProfile(lean), { ...at, version }),
          profileFor(await loadBuildProfile(nops), { ...at, version }),
        ];
        assert.deepEqual(
          b.cmakeFlags.filter((f) => !a.cmakeFlags.includes(f)),
          [],
          `${lean} keeps every flag of ${nops}`,
        );
        return a.cmakeFlags.filter((f) => !b.cmakeFlags.includes(f));
      };
      assert.deepEqual(await extra('mysql-rel-lean', 'mysql-rel-nops'), [
        '-DOPTIMIZER_TRACE=0',
        '-DENABLED_PROFILING=0',
      ]);
      assert.deepEqual(await extra('mariadb-rel-lean', 'mariadb-rel-nops'), ['-DENABLED_PROFILING=OFF']);
      // Another build of one demo tag: only the build type differs.
      const [demo, debug] = [await loadBuildProfile('demo'), await loadBuildProfile('demo-debug')];
      assert.deepEqual(
        debug.cmakeFlags,
        demo.cmakeFlags.map((f) => (f.startsWith('-DCMAKE_BUILD_TYPE=') ? '-DCMAKE_BUILD_TYPE=Debug' : f)),
      );
    },
  );

  test('an unknown name lists the profiles there are', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qpsw-bp-'));
    try {
      await writeFile(join(dir, 'one.yaml'), 'description: one\n');
      await writeFile(join(dir, 'two.yaml'), 'description: two\n');
      await assert.rejects(loadBuildProfile('three', dir), (err: unknown) => {
        assert.ok(err instanceof BuildProfileError);
        assert.equal(
          err.message,
          `build profile ${join(dir, 'three.yaml')}: name = "three": no such build profile; use one of: one, two`,
        );
        return true;
      });
      await assert.rejects(loadBuildProfile('../x', dir), BuildProfileError);
      assert.equal((await loadBuildProfile('two', dir)).description, 'two');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

test('cmakeFlagName and expandCmakeFlags', () => {
  assert.equal(cmakeFlagName('-DWITH_BOOST:PATH=/x'), 'WITH_BOOST');
  assert.equal(cmakeFlagName('-DCMAKE_C_FLAGS=-O2 -g1'), 'CMAKE_C_FLAGS');
  assert.throws(() => cmakeFlagName('-G Ninja'), TypeError);
  assert.deepEqual(expandCmakeFlags(['-DWITH_BOOST={cache_dir}/boost', '-DX={other}'], '/var/cache/qpswatch'), [
    '-DWITH_BOOST=/var/cache/qpswatch/boost',
    '-DX={other}',
  ]);
});
