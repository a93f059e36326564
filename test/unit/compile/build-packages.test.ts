import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BuildPackagesError, ensureBuildPackages } from '../../../src/compile/index.js';
import { ExecNotFoundError, type RunOptions, type RunResult } from '../../../src/exec/index.js';
import { silentLog } from '../../helpers/silent-log.js';

/**
 * A host's dpkg and apt, played from three sets: what is installed, what apt can install, and what it can install
 * only after `apt-get update`. Every argv is recorded.
 */
function fakeHost(opts: { installed: string[]; installable?: string[]; afterUpdate?: string[]; aptError?: string }) {
  const installed = new Set(opts.installed);
  let lists = new Set(opts.installable ?? []);
  const calls: string[][] = [];
  const result = (argv: readonly string[], exitCode: number, stdout: string, stderr = ''): RunResult => ({
    argv: [...argv],
    exitCode,
    signal: null,
    stdout,
    stderr,
    tail: `${stdout}\n${stderr}`.split('\n').filter((l) => l !== ''),
    durationMs: 1,
  });
  const runner = (o: RunOptions): Promise<RunResult> => {
    const argv = o.argv;
    calls.push([...argv]);
    if (argv[0] === 'dpkg-query') {
      const names = argv.slice(argv.indexOf('--') + 1);
      const lines = names.filter((n) => installed.has(n)).map((n) => `${n} installed`);
      const unknown = names.filter((n) => !installed.has(n)).map((n) => `dpkg-query: no packages found matching ${n}`);
      return Promise.resolve(result(argv, unknown.length > 0 ? 1 : 0, lines.join('\n'), unknown.join('\n')));
    }
    if (argv[1] === 'update') {
      lists = new Set([...lists, ...(opts.afterUpdate ?? [])]);
      return Promise.resolve(result(argv, 0, 'Reading package lists...'));
    }
    if (opts.aptError !== undefined) return Promise.resolve(result(argv, 100, '', opts.aptError));
    const names = argv.slice(argv.indexOf('--') + 1);
    const unknown = names.filter((n) => !lists.has(n));
    if (unknown.length > 0)
      return Promise.resolve(
        result(
          argv,
          100,
          'Reading package lists...',
          unknown.map((n) => `E: Unable to locate package ${n}`).join('\n'),
        ),
      );
    for (const n of names) installed.add(n);
    return Promise.resolve(result(argv, 0, `Setting up ${names.join(', ')}`));
  };
  return { runner, calls, installed };
}

const root = (): number => 0;

describe('ensureBuildPackages', () => {
  test('everything installed: one dpkg-query, no apt-get', async () => {
    const host = fakeHost({ installed: ['bison', 'libfmt-dev'] });
    await ensureBuildPackages({ packages: ['bison', 'libfmt-dev'], install: true, log: silentLog, ...host, uid: root });
    assert.deepEqual(
      host.calls.map((c) => c[0]),
      ['dpkg-query'],
    );
  });

  test('missing ones are installed with apt-get, by name after "--", and checked again', async () => {
    const host = fakeHost({ installed: ['bison'], installable: ['libfmt-dev', 'libaio-dev'] });
    await ensureBuildPackages({
      packages: ['bison', 'libfmt-dev', 'libaio-dev'],
      install: true,
      log: silentLog,
      ...host,
      uid: root,
    });
    assert.deepEqual(host.calls[1], [
      'apt-get',
      'install',
      '-y',
      '-q',
      '--no-install-recommends',
      '--',
      'libfmt-dev',
      'libaio-dev',
    ]);
    assert.equal(host.calls.at(-1)![0], 'dpkg-query');
    assert.ok(host.installed.has('libaio-dev'));
  });

  test('a package apt does not know: one apt-get update, then one line naming it', async () => {
    const host = fakeHost({ installed: [], installable: ['bison'], afterUpdate: ['libfmt-dev'] });
    await assert.rejects(
      ensureBuildPackages({
        packages: ['bison', 'libfmt-dev', 'libfoo-dev'],
        install: true,
        log: silentLog,
        ...host,
        uid: root,
      }),
      (err: unknown) => {
        assert.ok(err instanceof BuildPackagesError);
        assert.deepEqual(err.packages, ['libfoo-dev']);
        assert.equal(
          err.message,
          'the build needs the Debian package libfoo-dev: not installed, and apt-get has no such package on this ' +
            "host; install it (apt-get install libfoo-dev) or drop it from the build profile's packages",
        );
        return true;
      },
    );
    assert.deepEqual(
      host.calls.filter((c) => c[0] === 'apt-get').map((c) => c[1]),
      ['install', 'update', 'install'],
    );
  });

  test('update brings the package: installed on the second try', async () => {
    const host = fakeHost({ installed: [], installable: [], afterUpdate: ['libfmt-dev'] });
    await ensureBuildPackages({ packages: ['libfmt-dev'], install: true, log: silentLog, ...host, uid: root });
    assert.ok(host.installed.has('libfmt-dev'));
  });

  test('apt-get fails for another reason: its E: line, every missing package named', async () => {
    const host = fakeHost({
      installed: [],
      aptError: 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)',
    });
    await assert.rejects(
      ensureBuildPackages({ packages: ['bison', 'libaio-dev'], install: true, log: silentLog, ...host, uid: root }),
      {
        message:
          'the build needs the Debian packages bison libaio-dev: not installed, and apt-get could not install them ' +
          '(E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)); install them ' +
          "(apt-get install bison libaio-dev) or drop them from the build profile's packages",
      },
    );
  });

  test('install_build_packages off, or not root: nothing installed, one line with the reason', async () => {
    const off = fakeHost({ installed: [], installable: ['bison'] });
    await assert.rejects(
      ensureBuildPackages({ packages: ['bison'], install: false, log: silentLog, ...off, uid: root }),
      {
        message:
          /^the build needs the Debian package bison: not installed, and install_build_packages is off; install it/,
      },
    );
    const user = fakeHost({ installed: [], installable: ['bison'] });
    await assert.rejects(
      ensureBuildPackages({ packages: ['bison'], install: true, log: silentLog, ...user, uid: () => 1000 }),
      {
        message:
          /: not installed, and qpswatch is not root, so it cannot install them; install it \(apt-get install bison\)/,
      },
    );
    assert.ok([...off.calls, ...user.calls].every((c) => c[0] === 'dpkg-query'));
  });

  test('a host without dpkg-query is not checked (cmake says what it lacks)', async () => {
    const calls: string[][] = [];
    await ensureBuildPackages({
      packages: ['bison'],
      install: true,
      log: silentLog,
      uid: root,
      runner: (o) => {
        calls.push([...o.argv]);
        return Promise.reject(new ExecNotFoundError(o.argv[0]!, o.argv));
      },
    });
    assert.equal(calls.length, 1);
  });

  test('no packages: nothing runs', async () => {
    await ensureBuildPackages({
      packages: [],
      install: true,
      log: silentLog,
      runner: () => Promise.reject(new Error('must not run')),
    });
  });
});
