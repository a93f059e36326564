import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countKinds, renderSessions, type SessionSummary } from '../../../src/cli/sessions-command.js';
import { unjudgedNote } from '../../../src/cli/show-command.js';
import type { ComparisonView } from '../../../src/model/index.js';
import type { SessionRecord } from '../../../src/store/index.js';

const now = new Date('2026-12-01T12:00:00.000Z');
const ago = (seconds: number): string => new Date(now.getTime() - seconds * 1000).toISOString();

function summary(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: 7,
    state: 'done',
    startedAt: ago(3 * 3600),
    endedAt: ago(3 * 3600 - 754),
    design: 'paired',
    suite: 'quick',
    baseline: { name: 'mariadb-10.11.9', flavor: 'mariadb', version: '10.11.9' },
    candidate: { name: 'mariadb-10.11.10', flavor: 'mariadb', version: '10.11.10' },
    judged: 'samples',
    verdicts: { ok: 5, regression: 1, improvement: 0, slower: 3, unstable: 2 },
    error: null,
    ...overrides,
  };
}

describe('renderSessions', () => {
  test('one row per session: id, state, started, took, design, suite, B and C, verdict counts', () => {
    const text = renderSessions(
      [
        summary({ id: 12, state: 'running', endedAt: null, judged: 'none', verdicts: null, startedAt: ago(95) }),
        summary(),
      ],
      now,
    );
    assert.equal(
      text,
      [
        'id  state    started            took  design  suite  baseline (B)      ' +
          '                 candidate (C)                        ' +
          'reg/imp/slow/unst/ok',
        '12  running  1 min ago  1 min so far  paired  quick  mariadb-10.11.9 ' +
          '(mariadb 10.11.9)  mariadb-10.11.10 (mariadb 10.11.10)                 ' +
          '    -',
        ' 7  done     3 h ago          12 min  paired  quick  mariadb-10.11.9 ' +
          '(mariadb 10.11.9)  mariadb-10.11.10 (mariadb 10.11.10)             ' +
          '1/0/3/2/5',
        '',
        'reg/imp/slow/unst/ok: tests that regressed, improved, were slower ' +
          'within the margin, unstable or ok; "-": not judged (the session did ' +
          'not finish)',
        '',
      ].join('\n'),
    );
  });

  test('a session under a memory setting names it in its design cell', () => {
    const text = renderSessions([summary({ memory: 'io-bound' })], now);
    assert.match(text.split('\n')[1]!, /^ 7  done .* paired io-bound  quick  /);
  });

  test('names are data: control characters are shown escaped, never sent to the terminal', () => {
    const text = renderSessions(
      [summary({ suite: 'q\u001b]0;pwned\u0007', baseline: { name: 'a\nb', flavor: 'mariadb', version: '1' } })],
      now,
    );
    assert.doesNotMatch(text, /\u001b|\u0007/);
    assert.match(text, /q\\x1b\]0;pwned\\x07/);
    assert.match(text, /a\\nb \(mariadb 1\)/);
  });

  test('an empty list says so, and how to get one', () => {
    assert.equal(renderSessions([], now), 'no sessions in the store: `qpswatch compare` runs one\n');
    assert.equal(renderSessions([], now, 'failed'), 'no failed sessions in the store\n');
  });
});

test('countKinds counts every kind, zeros included', () => {
  assert.deepEqual(countKinds(['ok', 'ok', 'regression', 'slower', 'unstable']), {
    ok: 2,
    regression: 1,
    improvement: 0,
    slower: 1,
    unstable: 1,
  });
  assert.deepEqual(countKinds([]), { ok: 0, regression: 0, improvement: 0, slower: 0, unstable: 0 });
});

describe('unjudgedNote', () => {
  const session = (overrides: Partial<SessionRecord>): SessionRecord =>
    ({ id: 4, state: 'done', pid: 99, startedAt: ago(300), endedAt: null, error: null, ...overrides }) as SessionRecord;
  const side = { samples: 3 };
  const view = (tests: number): ComparisonView =>
    ({
      tests: Array.from({ length: tests }, () => ({ baseline: side, candidate: side })),
    }) as unknown as ComparisonView;

  test('a judged session needs no note', () => {
    assert.equal(unjudgedNote({ session: session({}), view: view(2), judged: 'samples' }, now), undefined);
  });

  test('failed, interrupted and running sessions say what they are and that nothing is judged', () => {
    assert.equal(
      unjudgedNote(
        { session: session({ state: 'failed', error: 'mariadbd died\n<b>' }), view: view(2), judged: 'none' },
        now,
      ),
      'session 4 failed ("mariadbd died\\n<b>"): the 12 samples of the tests ' +
        'measured on both sides are shown, not judged',
    );
    assert.equal(
      unjudgedNote({ session: session({ state: 'interrupted' }), view: view(0), judged: 'none' }, now),
      'session 4 was interrupted: no test was measured on both sides, not judged',
    );
    assert.equal(
      unjudgedNote({ session: session({ state: 'running' }), view: view(1), judged: 'none' }, now),
      'session 4 is still running (started 5 min ago, pid 99): the 6 samples ' +
        'of the tests measured on both sides are shown, not judged',
    );
  });
});
