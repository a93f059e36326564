import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidCommitError, listCommits, parseCommitLog } from '../../../src/upstream/index.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);

const c = 'c'.repeat(40);

test('git log -z records: four NUL-separated fields each; subjects keep quotes, $() and separators as data', () => {
  type Entry = { commit: string; parents: string[]; author: string; subject: string };
  const cases: Array<[string, Entry[]]> = [
    ['', []],
    [`${a}\0\0Ann\0first\0`, [{ commit: a, parents: [], author: 'Ann', subject: 'first' }]],
    [
      `${a}\0${c}\0O'Brien & "Co"\0fsync <at> commit; $(touch x)\0\n${b}\0${a} ${c}\0Bo\0merge\0`,
      [
        { commit: a, parents: [c], author: `O'Brien & "Co"`, subject: 'fsync <at> commit; $(touch x)' },
        { commit: b, parents: [a, c], author: 'Bo', subject: 'merge' },
      ],
    ],
  ];
  for (const [stdout, expected] of cases) assert.deepEqual(parseCommitLog(stdout), expected, JSON.stringify(stdout));
});

test('listCommits takes commit ids only, never a tag name', async () => {
  await assert.rejects(listCommits('/nonexistent', 'mariadb-10.5.1', b), InvalidCommitError);
  await assert.rejects(listCommits('/nonexistent', a, '--upload-pack=touch x'), InvalidCommitError);
});
