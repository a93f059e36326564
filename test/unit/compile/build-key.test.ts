import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildKey,
  canonicalJson,
  compilerVersion,
  parseBuildProfile,
  profileHash,
  type BuildProfile,
} from '../../../src/compile/index.js';

const COMMIT = 'a'.repeat(40);
const GCC = 'cc (Debian 12.2.0-14+deb12u1) 12.2.0';

function profile(text: string): BuildProfile {
  return parseBuildProfile(`description: d\n${text}`, 'p', '/x/p.yaml');
}

const BASE = profile('cmake_flags: [-DA=1, -DB=2]\nenv: { CC: gcc, CXX: g++ }\n');
const key = (p: BuildProfile, commit = COMMIT, compiler = GCC): string =>
  buildKey({ commit, profile: p, compilerVersion: compiler });

describe('buildKey', () => {
  test('is 16 hex characters and the same for the same input', () => {
    assert.match(key(BASE), /^[0-9a-f]{16}$/);
    assert.equal(key(BASE), key(profile('cmake_flags: [-DA=1, -DB=2]\nenv: { CC: gcc, CXX: g++ }\n')));
  });

  test('changes with the commit, the compiler, the flags, their order, the env and the generator', () => {
    const keys = [
      key(BASE),
      key(BASE, 'b'.repeat(40)),
      key(BASE, COMMIT, 'cc (Debian 13.1.0) 13.1.0'),
      key(profile('cmake_flags: [-DA=1, -DB=3]\nenv: { CC: gcc, CXX: g++ }\n')),
      key(profile('cmake_flags: [-DB=2, -DA=1]\nenv: { CC: gcc, CXX: g++ }\n')),
      key(profile('cmake_flags: [-DA=1, -DB=2]\nenv: { CC: clang, CXX: g++ }\n')),
      key(profile('generator: Ninja\ncmake_flags: [-DA=1, -DB=2]\nenv: { CC: gcc, CXX: g++ }\n')),
    ];
    assert.equal(new Set(keys).size, keys.length);
  });

  test(
    'does not change with what does not change the binaries: description, ' + 'jobs, ccache, timeout, env key order',
    () => {
      const same = parseBuildProfile(
        'description: other\njobs: 7\nccache: true\ntimeout_minutes: ' +
          '9\ncmake_flags: [-DA=1, -DB=2]\nenv: { CXX: g++, CC: gcc }\n',
        'q',
        '/y/q.yaml',
      );
      assert.equal(key(same), key(BASE));
      assert.equal(profileHash(same), profileHash(BASE));
    },
  );

  test('in a shared store each host has its own keys; a lone host (no host) keeps the key it always had', () => {
    const of = (host?: string): string =>
      buildKey({ commit: COMMIT, profile: BASE, compilerVersion: GCC, ...(host !== undefined ? { host } : {}) });
    assert.equal(of(), key(BASE));
    assert.equal(of(''), key(BASE));
    assert.notEqual(of('host-a'), of('host-b'));
    assert.notEqual(of('host-a'), key(BASE));
  });

  test('patches change the key by their contents and order; none keeps the key patches never touched', () => {
    const [a, b] = ['1'.repeat(64), '2'.repeat(64)];
    const withPatches = (patches: string[]): string =>
      buildKey({ commit: COMMIT, profile: BASE, compilerVersion: GCC, patches });
    const keys = [key(BASE), withPatches([a]), withPatches([b]), withPatches([a, b]), withPatches([b, a])];
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(withPatches([]), key(BASE));
    // The key of a build without patches is the one every existing build has: commit, profile hash and compiler only.
    const before = createHash('sha256')
      .update(canonicalJson({ commit: COMMIT, profile: profileHash(BASE), compiler: GCC }))
      .digest('hex')
      .slice(0, 16);
    assert.equal(key(BASE), before);
    // Where a profile's patch files are is not part of it: their sha256 go in through patches.
    assert.equal(
      profileHash(profile('cmake_flags: [-DA=1, -DB=2]\nenv: { CC: gcc, CXX: g++ }\npatches: [fix.patch]\n')),
      profileHash(BASE),
    );
    assert.throws(
      () => withPatches(['not-a-checksum']),
      /patch checksum must be 64 lower-case hex characters, got "not-a-checksum"/,
    );
  });

  test('a sha256 commit is accepted; anything else is refused', () => {
    assert.match(key(BASE, 'c'.repeat(64)), /^[0-9a-f]{16}$/);
    for (const bad of ['', 'abc', 'A'.repeat(40), `${'a'.repeat(39)}g`, 'mariadb-10.11.9']) {
      assert.throws(() => key(BASE, bad), TypeError, bad);
    }
    assert.throws(() => key(BASE, COMMIT, '  '), TypeError);
  });
});

test('canonicalJson sorts object keys at every level and keeps array order', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }),
    '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
  );
});

test("compilerVersion is the first line of the profile's compiler --version", async () => {
  const line = await compilerVersion(profile(''));
  assert.match(line, /\d+\.\d+/);
  assert.equal(line.includes('\n'), false);
  // CC with arguments: the first word is the program.
  assert.equal(await compilerVersion(profile('env: { CC: "cc -m64" }\n')), line);
});
