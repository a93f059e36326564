import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectMovedTags } from '../../../src/upstream/index.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

test('a tag whose commit changed is a move; new, deleted and unchanged tags are not', () => {
  const known = [
    { tag: 'mariadb-10.11.9', commit: A },
    { tag: 'mariadb-10.11.10', commit: B },
    { tag: 'mariadb-10.11.8', commit: C },
  ];
  const remote = [
    { tag: 'mariadb-10.11.9', commit: A },
    { tag: 'mariadb-10.11.10', commit: C },
    { tag: 'mariadb-10.11.11', commit: A },
  ];
  assert.deepEqual(detectMovedTags(known, remote), [{ tag: 'mariadb-10.11.10', knownCommit: B, remoteCommit: C }]);
});

test('nothing known, or nothing on the remote: no moves', () => {
  assert.deepEqual(detectMovedTags([], [{ tag: 'x', commit: A }]), []);
  assert.deepEqual(detectMovedTags([{ tag: 'x', commit: A }], []), []);
});
