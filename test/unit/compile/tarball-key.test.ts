import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tarballKey } from '../../../src/compile/index.js';

const SHA = 'ab'.repeat(32);

test("a tarball's key: its sha256's first 16 digits alone; per host in a shared store, from the digits kept", () => {
  assert.equal(tarballKey(SHA), SHA.slice(0, 16));
  assert.equal(tarballKey(SHA, ''), SHA.slice(0, 16));
  assert.notEqual(tarballKey(SHA, 'host-a'), tarballKey(SHA, 'host-b'));
  assert.match(tarballKey(SHA, 'host-a'), /^[0-9a-f]{16}$/);
  // Discovery keeps 40 digits as the release's commit: the key it gives equals the downloaded file's.
  assert.equal(tarballKey(SHA.slice(0, 40).padEnd(64, '0'), 'host-a'), tarballKey(SHA, 'host-a'));
  assert.throws(() => tarballKey('xyz', 'host-a'), TypeError);
});
