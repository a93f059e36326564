import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { runCli } from '../helpers/cli.js';

/**
 * What qpswatch writes is not for other local users, whatever the caller's umask: from a root shell (umask 022) the
 * state folder comes out 750 and the store 640, and user nobody can neither list the folder nor read the store.
 */
let root = '';
after(async () => rm(root, { recursive: true, force: true }));

test('a root shell with umask 022: the state folder is 750, the store 640, and nobody can read either', async () => {
  root = await mkdtemp('/tmp/qpsw-modes-');
  const state = join(root, 'state');
  await writeFile(join(root, 'qpswatch.yaml'), `state_dir: ${state}\n`);
  await writeFile(
    join(root, 'results.csv'),
    'flavor,version,test,threads,qps,cpu_o,cs_o,r_o,rkb_o,wkb_o\nmariadb,10.11.6,point-query,1,1000,0.002,5,0,0,0\n',
  );
  // The test runner's own umask is the caller's: set it to a root shell's for the child.
  const previous = process.umask(0o022);
  try {
    const result = await runCli(['--config', join(root, 'qpswatch.yaml'), 'import', join(root, 'results.csv')], {
      cwd: root,
    });
    assert.equal(result.code, 0, result.stderr);
  } finally {
    process.umask(previous);
  }
  assert.equal((await stat(state)).mode & 0o777, 0o750);
  for (const name of await readdir(state)) {
    const mode = (await stat(join(state, name))).mode & 0o777;
    assert.equal(mode & 0o007, 0, `${name} is ${mode.toString(8)}: nothing for other users`);
  }
  const store = (await readdir(state)).find((n) => n.endsWith('.sqlite') || n.endsWith('.db'));
  assert.ok(store !== undefined, `a store file in ${(await readdir(state)).join(', ')}`);
  assert.equal((await stat(join(state, store))).mode & 0o777, 0o640);
  if (process.getuid?.() === 0) {
    // The temp root itself is 700 (mkdtemp): open it up so only the modes under test stand in nobody's way.
    spawnSync('chmod', ['755', root]);
    const asNobody = spawnSync('runuser', ['-u', 'nobody', '--', 'cat', join(state, store)], { encoding: 'utf8' });
    assert.notEqual(asNobody.status, 0);
    assert.match(asNobody.stderr, /Permission denied/);
    const list = spawnSync('runuser', ['-u', 'nobody', '--', 'ls', state], { encoding: 'utf8' });
    assert.notEqual(list.status, 0);
  }
});
