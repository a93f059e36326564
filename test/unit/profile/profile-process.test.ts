import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { NoProfileError, profileProcess, profilersOf } from '../../../src/profile/index.js';

/** Tiny stand-ins for perf and gdb: one refused as a seccomp filter or perf_event_paranoid would, one that works. */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-profiler-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function program(folder: string, name: string, script: string): string {
  const bin = join(dir, folder);
  writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, name), 0o755);
  return bin;
}

/** A folder of its own per case: PATH for the profiler lookup. */
function folder(name: string): string {
  const path = join(dir, name);
  mkdirSync(path);
  return path;
}

const options = { pid: process.pid, seconds: 1, workDir: dir };

describe('profileProcess', () => {
  test("auto passes over a refused perf to gdb, and gdb's backtraces become the profile", async () => {
    const bin = folder('refused');
    program(
      'refused',
      'perf',
      'echo "perf_event_open(..., PERF_FLAG_FD_CLOEXEC) failed: Operation not permitted" >&2; exit 255',
    );
    program(
      'refused',
      'gdb',
      'printf "Thread 1 (Thread 0x1 (LWP 2) \\"mariadbd\\"):\\n' +
        '#0  0x1 in fdatasync () from /lib/libc.so.6\\n#1  0x2 in main ()\\n"',
    );
    const side = await profileProcess({ ...options, mode: 'auto', pathEnv: bin });
    assert.equal(side.tool, 'gdb');
    assert.ok(side.samples >= 1);
    assert.deepEqual(
      side.stacks.map((s) => s.stack),
      ['main;fdatasync'],
    );
  });

  test('with neither program the one error names both and how to install them', async () => {
    const bin = folder('none');
    await assert.rejects(profileProcess({ ...options, mode: 'auto', pathEnv: bin }), (err: unknown) => {
      assert.ok(err instanceof NoProfileError);
      assert.equal(
        err.message,
        'no profile: perf is not installed (Debian: apt-get install linux-perf); ' +
          'gdb is not installed (Debian: apt-get install gdb)',
      );
      return true;
    });
  });

  test('perf only: its refusal is the reason, gdb is not tried', async () => {
    const bin = folder('perf-only');
    program('perf-only', 'perf', 'echo "Error: No permission to enable cpu-clock event." >&2; exit 1');
    program('perf-only', 'gdb', 'exit 99');
    await assert.rejects(
      profileProcess({ ...options, mode: 'perf', pathEnv: bin }),
      /^NoProfileError: no profile: perf record: exit 1: Error: No permission to enable cpu-clock event\.$/,
    );
  });

  test('off profiles nothing and says how to turn it on', async () => {
    await assert.rejects(profileProcess({ ...options, mode: 'off' }), /profiling is off .*set it to auto/);
    assert.deepEqual(profilersOf('auto'), ['perf', 'gdb']);
    assert.deepEqual(profilersOf('gdb'), ['gdb']);
  });
});
