import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALONE, runsAlone } from '../../helpers/host-share.js';
import { projectRoot } from '../../helpers/paths.js';

test('every file that runs alone exists, named by its path under test/', () => {
  for (const [file, why] of Object.entries(ALONE)) {
    assert.ok(existsSync(join(projectRoot, 'test', file)), `${file} (${why})`);
    assert.ok(why.length > 10, `${file} says why it runs alone`);
    assert.ok(runsAlone(join('dist', 'test', file.replace(/\.ts$/, '.js'))), file);
  }
  assert.equal(
    runsAlone('dist/test/unit/session/calibrate.test.js'),
    false,
    'a file of the same name elsewhere shares',
  );
});
