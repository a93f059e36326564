import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitVariant } from '../../../src/session/index.js';

test('TAG@PROFILE names a build variant; anything else is a plain tag', () => {
  const cases: Array<[string, ReturnType<typeof splitVariant>]> = [
    ['mariadb-10.11.9@mariadb-rel-nops', { tag: 'mariadb-10.11.9', buildProfile: 'mariadb-rel-nops' }],
    ['mysql-8.0.36@mysql-rel-lean', { tag: 'mysql-8.0.36', buildProfile: 'mysql-rel-lean' }],
    // Split at the last "@": a profile name never holds one.
    ['a@b@demo', { tag: 'a@b', buildProfile: 'demo' }],
    ['mariadb-10.11.9', { tag: 'mariadb-10.11.9' }],
    // Not a profile name after the "@", or nothing before it: the whole text is the name, and lookup says it is
    // unknown.
    ['mariadb-10.11.9@', { tag: 'mariadb-10.11.9@' }],
    ['mariadb-10.11.9@Demo', { tag: 'mariadb-10.11.9@Demo' }],
    ['mariadb-10.11.9@../x', { tag: 'mariadb-10.11.9@../x' }],
    ['@demo', { tag: '@demo' }],
  ];
  for (const [name, expected] of cases) assert.deepEqual(splitVariant(name), expected, name);
});
