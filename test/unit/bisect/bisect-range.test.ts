import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reachesGood } from '../../../src/bisect/bisect-range.js';
import type { CommitEntry } from '../../../src/upstream/index.js';

const id = (c: string): string => c.repeat(40);
const entry = (commit: string, ...parents: string[]): CommitEntry => ({
  commit: id(commit),
  parents: parents.map(id),
  author: 'Ann',
  subject: commit,
});
const ends = (good: string, bad: string, firstParent = true) => ({
  good: { commit: id(good) },
  bad: { commit: id(bad) },
  firstParent,
});

// git log good..bad lists the commits of bad's history that good's lacks, whatever good is: a good release of
// another branch gives a long range that must be refused, not bisected.
const cases: Array<[string, CommitEntry[], ReturnType<typeof ends>, boolean]> = [
  ['a straight line from good to the tag', [entry('b', 'a'), entry('c', 'b')], ends('a', 'c'), true],
  ['an empty range (good is the tag, or after it)', [], ends('c', 'c'), false],
  [
    'good on another branch: the oldest commit does not follow it',
    [entry('b', 'x'), entry('c', 'b')],
    ends('a', 'c'),
    false,
  ],
  ['the range does not end at the tag', [entry('b', 'a')], ends('a', 'c'), false],
  ['good reached through a merge, first parents only', [entry('m', 'x', 'a'), entry('c', 'm')], ends('a', 'c'), false],
  ['good reached through a merge, all parents', [entry('m', 'x', 'a'), entry('c', 'm')], ends('a', 'c', false), true],
  ['all parents, good nowhere in the range', [entry('b', 'x'), entry('c', 'b')], ends('a', 'c', false), false],
];

for (const [name, commits, range, expected] of cases)
  test(`bisect range: ${name}`, () => assert.equal(reachesGood(commits, range), expected));
