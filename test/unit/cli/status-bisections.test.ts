import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bisectionLines, type StatusBisection } from '../../../src/cli/status-bisections.js';

const found = (subject: string, author: string): StatusBisection => ({
  id: 1,
  releaseId: 2,
  goodReleaseId: 1,
  tag: 'mariadb-10.5.2',
  goodTag: 'mariadb-10.5.1',
  buildProfile: 'demo',
  tests: ['update-index'],
  commitCount: 17,
  outcome: 'found',
  firstBad: { commit: '44a2ebd0269c0123456789abcdef0123456789ab', subject, author },
  candidates: [],
  steps: [],
  builds: 5,
  startedAt: '2026-12-02T10:00:00.000Z',
  endedAt: '2026-12-02T10:10:00.000Z',
});

test('a subject or author with terminal controls reaches status escaped, C1 controls included', () => {
  // U+009B is the one-byte CSI: JSON.stringify leaves it as it is, and a terminal would start an escape sequence.
  const lines = bisectionLines(
    [found('make \u009b2J"durable"\u001b]0;owned\u0007', 'Eve <eve@example.org>\u009b31m')],
    new Date('2026-12-02T10:20:00.000Z'),
  );
  const line = lines.find((l) => l.includes('first bad commit'))!;
  assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f]/);
  assert.ok(line.includes('first bad commit 44a2ebd0269c "make \\x9b2J\\"durable\\"\\u001b]0;owned\\u0007"'), line);
  assert.ok(line.includes('by "Eve <eve@example.org>\\x9b31m"'), line);
  assert.ok(line.includes('5 build(s) of 17 commits'), line);
});
