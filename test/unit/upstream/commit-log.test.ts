import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidCommitError, listCommits, parseCommitLog } from '../../../src/upstream/index.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);

test('git log -z records: three NUL-separated fields each; subjects keep quotes, $() and separators as data', () => {
  const cases: Array<[string, Array<{ commit: string; author: string; subject: string }>]> = [
    ['', []],
    [`${a}\0Ann\0first\0`, [{ commit: a, author: 'Ann', subject: 'first' }]],
    [
      `${a}\0O'Brien & "Co"\0fsync <at> commit; $(touch x)\0\n${b}\0Bo\0second\0`,
      [
        { commit: a, author: `O'Brien & "Co"`, subject: 'fsync <at> commit; $(touch x)' },
        { commit: b, author: 'Bo', subject: 'second' },
      ],
    ],
  ];
  for (const [stdout, expected] of cases) assert.deepEqual(parseCommitLog(stdout), expected, JSON.stringify(stdout));
});

test('listCommits takes commit ids only, never a tag name', async () => {
  await assert.rejects(listCommits('/nonexistent', 'mariadb-10.5.1', b), InvalidCommitError);
  await assert.rejects(listCommits('/nonexistent', a, '--upload-pack=touch x'), InvalidCommitError);
});
