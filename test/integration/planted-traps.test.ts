import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { acquireHostLock, HostLockRefusedError } from '../../src/daemon/index.js';
import { prepareStateFolders } from '../../src/session/target-instance.js';
import {
  findAccount,
  prepareServerDirs,
  privateDir,
  serverPaths,
  SOCKET_DIR_MODE,
  UnsafeFolderError,
} from '../../src/server/index.js';

/**
 * The traps a hostile local user (here `nobody`) can set for qpswatch running as root, each planted for real: a
 * state folder made beforehand, a `work` symlink, a `tmp` symlink, a lock file naming pid 1, and a lock file root's
 * CLI cannot trust. qpswatch refuses each in one line, and a listing of owners and modes taken before and after
 * shows that it changed nothing, neither its own folders nor the link targets outside them.
 */
const asRoot = process.getuid?.() === 0;
const nobody = findAccount('nobody');
const server = findAccount('mysql') ?? nobody;

describe(
  'traps planted by another local user',
  { skip: asRoot && nobody !== undefined ? false : 'needs root and user nobody' },
  () => {
    // A shared folder like /var/tmp or /run/lock: every user may create names in it.
    const base = mkdtempSync('/tmp/qpsw-traps-');
    chmodSync(base, 0o1777);
    after(() => rmSync(base, { recursive: true, force: true }));
    const asNobody = (...argv: string[]) => {
      const result = spawnSync('runuser', ['-u', 'nobody', '--', ...argv], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
    };

    test("a state folder another user made beforehand (the quickstart's /var/tmp name) is refused", async () => {
      const state = join(base, 'qpswatch-quickstart');
      asNobody('mkdir', '-m', '0777', state);
      const before = listing(base);
      await assert.rejects(prepareStateFolders(state, server!.name), (err: unknown) =>
        oneLine(
          err,
          UnsafeFolderError,
          `${state} exists and belongs to user nobody (uid 65534), not to user ` +
            `root (uid 0): another user may have made it beforehand, to reach the ` +
            `server's files; look at what is in it, then remove it or choose ` +
            `another state_dir`,
        ),
      );
      assert.deepEqual(listing(base), before);
    });

    test('a `work` symlink in the state folder is refused; its target keeps its mode and group', async () => {
      const state = join(base, 'state-work');
      await privateDir(state, server);
      const elsewhere = plantedFolder('elsewhere-work');
      plantLink(elsewhere, join(state, 'work'));
      const before = listing(base);
      await assert.rejects(prepareStateFolders(state, server!.name), (err: unknown) =>
        oneLine(
          err,
          UnsafeFolderError,
          `${join(state, 'work')} is a symbolic link (to ${elsewhere}) made by ` +
            `user nobody (uid 65534): qpswatch never follows one to its folders; ` +
            `remove it (sudo rm ${join(state, 'work')}) or choose another state_dir`,
        ),
      );
      assert.deepEqual(listing(base), before);
    });

    test("a `tmp` symlink in a server's folder is refused; its target is not given to the server account", async () => {
      const target = join(base, 'state-tmp', 'work', 'session-1', 'baseline');
      await privateDir(target, server);
      const paths = { ...serverPaths(target), socket: join(base, 'state-tmp', 'run', '1-b.sock') };
      await privateDir(join(base, 'state-tmp', 'run'), server, SOCKET_DIR_MODE);
      const elsewhere = plantedFolder('elsewhere-tmp');
      plantLink(elsewhere, paths.tmpdir);
      const before = listing(base);
      await assert.rejects(prepareServerDirs(paths, server), (err: unknown) =>
        oneLine(
          err,
          UnsafeFolderError,
          `${paths.tmpdir} is a symbolic link (to ${elsewhere}) made by user ` +
            `nobody (uid 65534): qpswatch never follows one to its folders; remove ` +
            `it (sudo rm ${paths.tmpdir}) or choose another state_dir`,
        ),
      );
      assert.deepEqual(listing(base), before);
      assert.equal(statSync(elsewhere).uid, nobody!.uid);
    });

    test(
      'a host lock file another user put in the sticky lock folder naming pid ' + '1 is refused, and left as it was',
      () => {
        const lock = join(base, 'qpswatch-host.lock');
        asNobody('sh', '-c', `echo '{"pid":1,"startedAt":"2026-01-01T00:00:00.000Z"}' > ${lock}`);
        const before = listing(base);
        assert.throws(
          () => acquireHostLock(lock),
          (err: unknown) =>
            oneLine(
              err,
              HostLockRefusedError,
              `host lock ${lock} belongs to user nobody (uid 65534), not to root or ` +
                `qpswatch's user: another user may have planted it; remove it as root ` +
                `(sudo rm ${lock}), or set host_lock to a file in a folder other users ` +
                `cannot write`,
            ),
        );
        assert.deepEqual(listing(base), before);
        assert.match(readFileSync(lock, 'utf8'), /"pid":1/);
      },
    );

    test('an unreadable host lock file another user planted is refused, not taken for stale', () => {
      const lock = join(base, 'unreadable.lock');
      asNobody('sh', '-c', `umask 077 && : > ${lock}`);
      const before = listing(base);
      assert.throws(
        () => acquireHostLock(lock),
        (err: unknown) =>
          oneLine(
            err,
            HostLockRefusedError,
            `host lock ${lock} belongs to user nobody (uid 65534), not to root or ` +
              `qpswatch's user: another user may have planted it; remove it as root ` +
              `(sudo rm ${lock}), or set host_lock to a file in a folder other users ` +
              `cannot write`,
          ),
      );
      assert.deepEqual(listing(base), before);
    });

    test('a host lock that is a symbolic link is refused, and the file it points to is untouched', () => {
      const victim = join(base, 'victim');
      writeFileSync(victim, 'not a lock\n');
      const lock = join(base, 'linked.lock');
      plantLink(victim, lock);
      const before = listing(base);
      assert.throws(
        () => acquireHostLock(lock),
        (err: unknown) =>
          err instanceof HostLockRefusedError &&
          !err.message.includes('\n') &&
          err.message.includes('is a symbolic link'),
      );
      assert.deepEqual(listing(base), before);
      assert.equal(readFileSync(victim, 'utf8'), 'not a lock\n');
    });

    test(
      'a state folder below a folder every user may write (not sticky) is ' +
        'refused: a part could be swapped for a link',
      async () => {
        const open = join(base, 'open');
        asNobody('mkdir', '-m', '0777', open);
        const before = listing(base);
        await assert.rejects(prepareStateFolders(join(open, 'state'), server!.name), (err: unknown) =>
          oneLine(
            err,
            UnsafeFolderError,
            `${open} is writable by every user and not sticky (mode 0777): any user ` +
              `could swap a folder below it for a link; make it private (chmod o-w ` +
              `${open}) or choose another state_dir`,
          ),
        );
        assert.deepEqual(listing(base), before);
      },
    );

    test(
      "root's CLI on an existing state folder keeps its group and mode (the " + "service's operators read it)",
      async () => {
        const state = join(base, 'service-state');
        mkdirSync(state);
        // 0751: the operator let the server account pass, as the one-line fix says; group nogroup stands for qpswatch.
        chownSync(state, 0, nobody!.gid);
        chmodSync(state, 0o751);
        await prepareStateFolders(state, server!.name);
        const s = statSync(state);
        assert.deepEqual([s.uid, s.gid, s.mode & 0o7777], [0, nobody!.gid, 0o751]);
        assert.equal(statSync(join(state, 'run')).gid, server!.gid, "the folders it makes get the server's group");
      },
    );

    test(
      'a state folder root made a moment ago (the store opens first) gets the ' +
        "server's group, so the server can pass",
      async () => {
        const state = join(base, 'fresh-state');
        mkdirSync(state, 0o750);
        await prepareStateFolders(state, server!.name);
        const s = statSync(state);
        assert.deepEqual([s.uid, s.gid, s.mode & 0o7777], [0, server!.gid, 0o750]);
      },
    );

    /** A folder of nobody's with a file in it: what a link planted by nobody points to. */
    function plantedFolder(name: string): string {
      const dir = join(base, name);
      asNobody('mkdir', '-m', '0755', dir);
      asNobody('touch', join(dir, 'f'));
      return dir;
    }
  },
);

/** A symbolic link owned by nobody, as nobody would make it in a folder it could write. */
function plantLink(target: string, link: string): void {
  symlinkSync(target, link);
  lchownSync(link, 65534, 65534);
}

/** err is a `type` whose message is exactly `message`, on one line. */
function oneLine(err: unknown, type: new (...args: never[]) => Error, message: string): boolean {
  assert.ok(err instanceof type, String(err));
  assert.equal(err.message, message);
  assert.ok(!err.message.includes('\n'));
  return true;
}

/** Every path under dir (not following links) with its type, owner, group and mode: what "nothing changed" means. */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string): void => {
    const s = lstatSync(path);
    const type = s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : 'file';
    out[path] = `${type} ${s.uid}:${s.gid} ${(s.mode & 0o7777).toString(8)}`;
    if (type === 'dir') for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return out;
}
