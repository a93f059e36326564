import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEnv, ccacheBaseDir, cmakeCommands, parseBuildProfile } from '../../../src/compile/index.js';

const SETUP = {
  worktree: '/s/wt/10.11.9',
  buildDir: '/s/wt/10.11.9/.qpswatch-build',
  installDir: '/s/builds/k/install',
  cacheDir: '/c',
  jobs: 6,
};
const BASE_ENV = { PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8' };

describe('cmakeCommands', () => {
  test('configure, build and install with ccache', () => {
    const p = parseBuildProfile(
      'description: d\ngenerator: Ninja\nccache: true\ncmake_flags: ' +
        '["-DWITH_BOOST={cache_dir}/boost", "-DCMAKE_C_FLAGS=-O2 -g1"]\n',
      'p',
      '/x',
    );
    assert.deepEqual(cmakeCommands(p, SETUP), {
      configure: [
        'cmake',
        '-S',
        '/s/wt/10.11.9',
        '-B',
        '/s/wt/10.11.9/.qpswatch-build',
        '-G',
        'Ninja',
        '-DCMAKE_INSTALL_PREFIX=/s/builds/k/install',
        '-DCMAKE_C_COMPILER_LAUNCHER=ccache',
        '-DCMAKE_CXX_COMPILER_LAUNCHER=ccache',
        '-DWITH_BOOST=/c/boost',
        '-DCMAKE_C_FLAGS=-O2 -g1',
      ],
      build: ['cmake', '--build', '/s/wt/10.11.9/.qpswatch-build', '-j', '6'],
      install: ['cmake', '--install', '/s/wt/10.11.9/.qpswatch-build'],
    });
  });

  test('no launcher without ccache; the default generator', () => {
    const p = parseBuildProfile('description: d\n', 'p', '/x');
    assert.deepEqual(cmakeCommands(p, SETUP).configure, [
      'cmake',
      '-S',
      '/s/wt/10.11.9',
      '-B',
      '/s/wt/10.11.9/.qpswatch-build',
      '-G',
      'Unix Makefiles',
      '-DCMAKE_INSTALL_PREFIX=/s/builds/k/install',
    ]);
  });
});

describe('buildEnv', () => {
  test("the profile's env goes on top of the base; ccache gets its folders", () => {
    const p = parseBuildProfile('description: d\nccache: true\nenv: { CC: gcc-12, PATH: /opt/bin }\n', 'p', '/x');
    assert.deepEqual(buildEnv(p, SETUP, BASE_ENV), {
      PATH: '/opt/bin',
      HOME: '/root',
      LANG: 'C.UTF-8',
      CC: 'gcc-12',
      CCACHE_DIR: '/c/ccache',
      CCACHE_BASEDIR: '/s/wt/10.11.9',
      CCACHE_NOHASHDIR: '1',
    });
  });

  test('without ccache no ccache variables', () => {
    const p = parseBuildProfile('description: d\n', 'p', '/x');
    assert.deepEqual(buildEnv(p, SETUP, BASE_ENV), BASE_ENV);
  });
});

test('ccacheBaseDir is the deepest folder holding both, never /', () => {
  assert.equal(ccacheBaseDir('/s/wt/a', '/s/wt/a/.qpswatch-build'), '/s/wt/a');
  assert.equal(ccacheBaseDir('/s/wt/a', '/s/builds/k/build'), '/s');
  assert.equal(ccacheBaseDir('/s/wt/a', '/s/wt/ab/build'), '/s/wt');
  assert.equal(ccacheBaseDir('/s/wt/a', '/other/build'), '/s/wt/a');
  assert.equal(ccacheBaseDir('/s/wt/a/', '/s/wt/a/../a/b'), '/s/wt/a');
});
