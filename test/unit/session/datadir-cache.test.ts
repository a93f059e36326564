import assert from 'node:assert/strict';
import {
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseServerProfile, UnsafeFolderError } from '../../../src/server/index.js';
import { LoadedDatadirCache, type PreparedTarget } from '../../../src/session/index.js';
import type { Suite, SuiteLoad } from '../../../src/suite/index.js';
import { parseVersion } from '../../../src/version/index.js';
import { silentLog } from '../../helpers/silent-log.js';

/**
 * The cache of loaded datadirs on real folders and cp(1): what makes two loads the same key, a copy in and out, and
 * the entries used longest ago dropped. That a session takes an entry and gives its root a password of its own is
 * sessions-show.test's (a real mariadbd).
 */
const dir = mkdtempSync(join(tmpdir(), 'qpswatch-datadir-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const mysqld = join(dir, 'mysqld');
writeFileSync(mysqld, 'a server binary');
const scripts = join(dir, 'lua');
mkdirSync(scripts);
writeFileSync(join(scripts, 'oltp_common.lua'), '-- common');
writeFileSync(join(scripts, 'oltp_read_only.lua'), '-- read only');

function target(settings = 'innodb_buffer_pool_size: 1G'): PreparedTarget {
  const profile = parseServerProfile(`description: test\nsettings:\n  ${settings}\n`, 'p', 'p.yaml');
  const binaries = {
    flavor: 'mariadb',
    basedir: '/usr',
    mysqld,
    version: parseVersion('10.11.9'),
    versionText: 'mysqld  Ver 10.11.9-MariaDB',
  } as PreparedTarget['binaries'];
  return { name: 't', binaries, profile, ref: {} } as unknown as PreparedTarget;
}

function suite(over: Partial<SuiteLoad> = {}): Pick<Suite, 'loads'> {
  const load: SuiteLoad = {
    tables: 1,
    tableSize: 2000,
    script: 'oltp_read_only',
    scriptPath: join(scripts, 'oltp_read_only.lua'),
    args: {},
    database: 'sbtest',
    ...over,
  };
  return { loads: [load] };
}

function datadir(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, 'sbtest'), { recursive: true });
  writeFileSync(join(path, 'ibdata1'), text);
  writeFileSync(join(path, 'sbtest', 'sbtest1.ibd'), text);
  return path;
}

describe('LoadedDatadirCache', () => {
  test('datadir_cache 0 keeps none', () => {
    assert.equal(LoadedDatadirCache.of(join(dir, 'cache'), 0, 0), undefined);
  });

  test('the key follows the server, its settings, sysbench and the load, and nothing of a session', async () => {
    const cache = LoadedDatadirCache.of(join(dir, 'cache'), 2, 0)!;
    const base = await cache.key(target(), suite());
    assert.match(base, /^[0-9a-f]{24}$/);
    assert.equal(await cache.key(target(), suite()), base, 'the same target and load');
    const changed = [
      await cache.key(target('innodb_buffer_pool_size: 2G'), suite()),
      await cache.key(target(), suite({ tableSize: 3000 })),
      await cache.key(target(), suite({ tables: 2 })),
      await cache.key(target(), suite({ database: 'sbtest_l1' })),
      await cache.key(target(), suite({ args: { 'secondary-index': 'on' } } as Partial<SuiteLoad>)),
    ];
    writeFileSync(join(scripts, 'oltp_common.lua'), '-- common, changed');
    changed.push(await cache.key(target(), suite()));
    writeFileSync(join(scripts, 'oltp_common.lua'), '-- common');
    assert.equal(await cache.key(target(), suite()), base, 'the Lua file as it was');
    const later = new Date(Date.now() + 60_000);
    utimesSync(mysqld, later, later);
    changed.push(await cache.key(target(), suite()));
    assert.equal(new Set([base, ...changed]).size, changed.length + 1, `every change is a new key: ${changed}`);
  });

  test('put keeps a copy in a folder of its own; take copies it out; none is false', async () => {
    const cache = LoadedDatadirCache.of(join(dir, 'cache'), 2, 0)!;
    const loaded = datadir('loaded', 'rows of load one');
    await cache.put('one', loaded, silentLog);
    assert.equal(statSync(join(dir, 'cache', 'datadirs')).mode & 0o777, 0o700, 'nobody but root may enter');
    const copy = join(dir, 'copy');
    assert.equal(await cache.take('one', copy, silentLog), true);
    assert.equal(readFileSync(join(copy, 'sbtest', 'sbtest1.ibd'), 'utf8'), 'rows of load one');
    assert.equal(await cache.take('none', join(dir, 'nothing'), silentLog), false);
    assert.throws(() => statSync(join(dir, 'nothing')), /ENOENT/);
  });

  test('beyond datadir_cache entries, the one used longest ago is dropped', async () => {
    const root = join(dir, 'lru');
    const cache = LoadedDatadirCache.of(root, 2, 0)!;
    await cache.put('a', datadir('a', 'a'), silentLog);
    await cache.put('b', datadir('b', 'b'), silentLog);
    // a was used after b: b goes when c comes.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(root, 'datadirs', 'b'), past, past);
    assert.equal(await cache.take('a', join(dir, 'a-copy'), silentLog), true);
    await cache.put('c', datadir('c', 'c'), silentLog);
    assert.equal(await cache.take('b', join(dir, 'b-copy'), silentLog), false);
    assert.equal(await cache.take('a', join(dir, 'a-copy-2'), silentLog), true);
    assert.equal(await cache.take('c', join(dir, 'c-copy'), silentLog), true);
  });

  test('a copy that fails is a warning and keeps nothing; a datadirs folder of another user is refused', async () => {
    const root = join(dir, 'faults');
    const cache = LoadedDatadirCache.of(root, 2, 0)!;
    const warned: string[] = [];
    const log = { ...silentLog, warn: (_o: unknown, msg: string) => warned.push(msg) } as unknown as typeof silentLog;
    await cache.put('gone', join(dir, 'no-such-datadir'), log);
    assert.deepEqual(warned, ['the loaded datadir could not be kept in the cache: later sessions load it again']);
    assert.deepEqual(readdirSync(join(root, 'datadirs')), [], 'no entry, no partial copy left');
    if (process.getuid?.() !== 0) return;
    chownSync(join(root, 'datadirs'), 65534, 65534);
    await assert.rejects(cache.take('any', join(dir, 'planted-copy'), silentLog), UnsafeFolderError);
  });

  test('a copy that would leave less than min_free_bytes free is not made', async () => {
    const root = join(dir, 'full');
    const cache = LoadedDatadirCache.of(root, 2, Number.MAX_SAFE_INTEGER)!;
    const said: string[] = [];
    const log = { ...silentLog, info: (_o: unknown, msg: string) => said.push(msg) } as unknown as typeof silentLog;
    await cache.put('big', datadir('big', 'rows'), log);
    assert.match(said.join('\n'), /not kept in the cache: .* would leave less than min_free_bytes free in /);
    assert.deepEqual(readdirSync(join(root, 'datadirs')), []);
  });
});
