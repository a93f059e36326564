import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Verdict } from '../../../src/model/index.js';
import { checkProfiler, profileOpenedEvents, type EventProfileDeps } from '../../../src/checks/event-profile.js';
import { NoProfileError } from '../../../src/profile/index.js';
import type { ProfileDeps, ProfileOutcome, ProfileRequest } from '../../../src/session/index.js';
import type { Suite, SuiteTest } from '../../../src/suite/index.js';
import { silentLog } from '../../helpers/silent-log.js';

const suite = {
  name: 'demo',
  tests: ['point-query', 'update-index'].map((name) => ({ name, threads: [1, 4] }) as unknown as SuiteTest),
} as unknown as Suite;

function regression(test: string, threads: number, relativeQps: number): Verdict {
  return { test, threads, relativeQps, kind: 'regression' } as Verdict;
}

const input = {
  opened: [regression('point-query', 1, 0.9), regression('update-index', 4, 0.41), regression('update-index', 1, 0.7)],
  suite,
  baseline: 'demo-1.0',
  candidate: 'demo-1.1',
  sessionId: 42,
};

const HOSTILE = '<img src=x onerror=alert(1)>';

/** A profiler that records what it was asked and returns a profile where the hostile frame grew. */
function fakeProfiler(asked: ProfileRequest[]): EventProfileDeps['takeProfile'] {
  return async (request) => {
    asked.push(request);
    const outcome: ProfileOutcome = {
      id: 9,
      baseline: { tool: 'perf', samples: 4, stacks: [{ stack: 'main;write', count: 4 }] },
      candidate: {
        tool: 'gdb',
        samples: 4,
        stacks: [
          { stack: `main;${HOSTILE};fdatasync`, count: 3 },
          { stack: 'main;write', count: 1 },
        ],
      },
      grown: [{ frame: HOSTILE, ...shares(0, 0.75) }],
    };
    return outcome;
  };
}

function shares(b: number, c: number) {
  return {
    baselineSelf: 0,
    candidateSelf: 0,
    baselineTotal: b,
    candidateTotal: c,
    totalGrowth: c - b,
    selfGrowth: 0,
  };
}

async function withStateDir(run: (stateDir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'qpsw-evprof-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function deps(stateDir: string, takeProfile: EventProfileDeps['takeProfile'], profiling = 'auto' as const) {
  return { settings: { profiling, profileSeconds: 3, stateDir }, log: silentLog, takeProfile };
}

describe('profileOpenedEvents', () => {
  test('profiles the worst regressed test once, on the check baseline, linked to its session', async () => {
    await withStateDir(async (stateDir) => {
      const asked: ProfileRequest[] = [];
      const profile = await profileOpenedEvents(input, deps(stateDir, fakeProfiler(asked)));
      assert.equal(asked.length, 1);
      const [request] = asked;
      assert.deepEqual(
        [request!.test.name, request!.threads, request!.baseline, request!.candidate, request!.seconds],
        ['update-index', 4, 'demo-1.0', 'demo-1.1', 3],
      );
      assert.equal(request!.sessionId, 42);
      assert.equal(request!.mode, 'auto');
      assert.ok(profile?.kind === 'taken');
      assert.equal(profile.id, 9);
      assert.equal(profile.flameGraph, join(stateDir, 'profiles', '9', 'flame-graph.svg'));
      assert.deepEqual([profile.baseline.tool, profile.candidate.tool, profile.sessionId], ['perf', 'gdb', 42]);
      const svg = await readFile(profile.flameGraph, 'utf8');
      assert.match(svg, /^<svg /);
      assert.match(svg, /&lt;img src=x onerror=alert\(1\)&gt;/);
      assert.doesNotMatch(svg, /<img/);
      assert.match(await readFile(profile.page, 'utf8'), /update-index\.t4, demo-1\.1 \(C\) against demo-1\.0 \(B\)/);
    });
  });

  test('a profiler that finds no tool gives the one line of reasons, and the check goes on', async () => {
    await withStateDir(async (stateDir) => {
      const missing: EventProfileDeps['takeProfile'] = async () => {
        throw new NoProfileError(['perf is not installed', 'gdb is not installed']);
      };
      assert.deepEqual(await profileOpenedEvents(input, deps(stateDir, missing)), {
        kind: 'none',
        reason: 'perf is not installed; gdb is not installed',
      });
    });
  });

  test('any other failure of the profiler is caught and said, never thrown', async () => {
    await withStateDir(async (stateDir) => {
      const crash: EventProfileDeps['takeProfile'] = async () => {
        throw new Error('mysqld did not start');
      };
      assert.deepEqual(await profileOpenedEvents(input, deps(stateDir, crash)), {
        kind: 'none',
        reason: 'profiling failed: mysqld did not start',
      });
    });
  });

  test('nothing opened, or profiling off: no profile and no profiler run', async () => {
    await withStateDir(async (stateDir) => {
      const asked: ProfileRequest[] = [];
      assert.equal(await profileOpenedEvents({ ...input, opened: [] }, deps(stateDir, fakeProfiler(asked))), undefined);
      const off = {
        ...deps(stateDir, fakeProfiler(asked)),
        settings: { profiling: 'off' as const, profileSeconds: 3, stateDir },
      };
      assert.equal(await profileOpenedEvents(input, off), undefined);
      assert.equal(asked.length, 0);
    });
  });

  test('the check profiler says at once that no profiler is installed, before any server starts', async () => {
    const take = checkProfiler({} as ProfileDeps, '/nonexistent-qpsw');
    await assert.rejects(
      take({ mode: 'auto' } as ProfileRequest),
      (err: unknown) =>
        err instanceof NoProfileError && err.message === 'no profile: perf is not installed; gdb is not installed',
    );
  });
});
