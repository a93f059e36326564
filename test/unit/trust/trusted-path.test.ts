import assert from 'node:assert/strict';
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import {
  checkTrustedFile,
  checkTrustedFolder,
  ensureTrustedFolder,
  UnreadableFileError,
  UntrustedPathError,
} from '../../../src/trust/index.js';

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const state = { what: 'state_dir', elsewhere: 'choose another state_dir' };
const config = { what: 'config file', elsewhere: 'name another config file' };
const secret = { what: 'smtp_password_file', elsewhere: "use a file of root's", secret: true };

/** A shared folder like /tmp: sticky, every user may create names in it. */
const base = mkdtempSync('/tmp/qpsw-trust-');
chmodSync(base, 0o1777);
after(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => {
  const dir = join(base, `case-${++n}`);
  mkdirSync(dir, 0o755);
  return dir;
};

/** The check refuses with exactly this one line. */
function refused(fn: () => void, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof UntrustedPathError, String(err));
    assert.equal(err.message, message);
    assert.ok(!err.message.includes('\n'));
    return true;
  });
}

describe('checkTrustedFolder', () => {
  test('a folder of this user, below root-owned and sticky folders, passes; so does one not made yet', () => {
    const dir = fresh();
    checkTrustedFolder(dir, state);
    checkTrustedFolder(join(dir, 'not', 'yet'), state);
  });

  test('a folder every user may write is refused, sticky or not', () => {
    const dir = fresh();
    chmodSync(dir, 0o1777);
    refused(
      () => checkTrustedFolder(dir, state),
      `state_dir ${dir} is writable by other users (mode 1777): any of them could put files of their own in it; ` +
        `chmod go-w ${dir}, or choose another state_dir`,
    );
  });

  test('a folder above that others may write and that is not sticky is refused: a part could be swapped', () => {
    const dir = fresh();
    chmodSync(dir, 0o775);
    refused(
      () => checkTrustedFolder(join(dir, 'state'), state),
      `state_dir ${join(dir, 'state')}: ${dir} is writable by other users and not sticky (mode 0775): any of them ` +
        `could swap what is below it for a link; chmod go-w ${dir}, or choose another state_dir`,
    );
  });

  test("a symbolic link as the folder itself is refused, even root's", () => {
    const dir = fresh();
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'state'));
    assert.throws(() => checkTrustedFolder(join(dir, 'state'), state), /is a symbolic link \(to .*real\)/);
  });

  test('a root-owned link on the way is followed, and the real path is checked too', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'real', 'state'), { recursive: true });
    symlinkSync(join(dir, 'real'), join(dir, 'via'));
    checkTrustedFolder(join(dir, 'via', 'state'), state);
    chmodSync(join(dir, 'real'), 0o777);
    assert.throws(() => checkTrustedFolder(join(dir, 'via', 'state'), state), /real is writable by other users/);
  });

  test('a file where a folder is expected is named', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'f'), '');
    assert.throws(() => checkTrustedFolder(join(dir, 'f', 'state'), state), /f is not a folder \(a regular file\)/);
  });
});

describe('checkTrustedFile', () => {
  test('a file of this user, 0644, passes; missing is an UnreadableFileError', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'q.yaml'), '', { mode: 0o644 });
    checkTrustedFile(join(dir, 'q.yaml'), config);
    assert.throws(() => checkTrustedFile(join(dir, 'none.yaml'), config), UnreadableFileError);
  });

  test('a file others may write is refused', () => {
    const dir = fresh();
    const file = join(dir, 'q.yaml');
    writeFileSync(file, '');
    chmodSync(file, 0o664);
    refused(
      () => checkTrustedFile(file, config),
      `config file ${file} is writable by other users (mode 0664): any of them could change what qpswatch runs ` +
        `or reads as root; chmod go-w ${file}`,
    );
  });

  test('a FIFO is refused before anything opens it', () => {
    const dir = fresh();
    execFileSync('mkfifo', [join(dir, 'q.yaml')]);
    assert.throws(() => checkTrustedFile(join(dir, 'q.yaml'), config), /is not a regular file \(a FIFO\)/);
  });

  test('a secret every user may read is refused; one its group may read passes', () => {
    const dir = fresh();
    const file = join(dir, 'pw');
    writeFileSync(file, 'x', { mode: 0o644 });
    chmodSync(file, 0o644);
    refused(
      () => checkTrustedFile(file, secret),
      `smtp_password_file ${file} is readable by every user (mode 0644): the secret is theirs too; chmod o-r ` +
        `${file}, and change the secret`,
    );
    chmodSync(file, 0o640);
    checkTrustedFile(file, secret);
  });
});

describe('another user', { skip: asRoot ? false : 'chown to another user needs root' }, () => {
  test('a state folder another user made is refused, naming the owner', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'state'), 0o755);
    chownSync(join(dir, 'state'), NOBODY, NOBODY);
    refused(
      () => checkTrustedFolder(join(dir, 'state'), state),
      `state_dir ${join(dir, 'state')} belongs to user nobody (uid 65534), not to root or qpswatch's user: another ` +
        `user may have made it beforehand; look at what is in it, and choose another state_dir`,
    );
  });

  test("a folder above that is another user's is refused: they could swap what is below", () => {
    const dir = fresh();
    chownSync(dir, NOBODY, NOBODY);
    assert.throws(
      () => checkTrustedFolder(join(dir, 'state'), state),
      /belongs to user nobody \(uid 65534\), not to root or qpswatch's user: that user could swap what is below it/,
    );
  });

  test("another user's link on the way is refused, and so is one of theirs to a file", () => {
    const dir = fresh();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'q.yaml'), '');
    symlinkSync(join(dir, 'real'), join(dir, 'via'));
    lchownSync(join(dir, 'via'), NOBODY, NOBODY);
    assert.throws(() => checkTrustedFolder(join(dir, 'via', 'state'), state), /made by user nobody/);
    symlinkSync(join(dir, 'real', 'q.yaml'), join(dir, 'link.yaml'));
    lchownSync(join(dir, 'link.yaml'), NOBODY, NOBODY);
    assert.throws(() => checkTrustedFile(join(dir, 'link.yaml'), config), /made by user nobody/);
  });

  test("a root link in another user's folder is refused: they could point it elsewhere at any time", () => {
    const dir = fresh();
    mkdirSync(join(dir, 'root-owned'));
    writeFileSync(join(dir, 'root-owned', 'q.yaml'), '', { mode: 0o644 });
    mkdirSync(join(dir, 'home'));
    chownSync(join(dir, 'home'), NOBODY, NOBODY);
    // The link is root's and leads into root's folder; the folder that holds it is nobody's.
    symlinkSync(join(dir, 'root-owned', 'q.yaml'), join(dir, 'home', 'q.yaml'));
    assert.throws(
      () => checkTrustedFile(join(dir, 'home', 'q.yaml'), config),
      (err: unknown) =>
        err instanceof UntrustedPathError &&
        err.part === join(dir, 'home') &&
        /belongs to user nobody/.test(err.message),
    );
    mkdirSync(join(dir, 'root-owned', 'state'));
    symlinkSync(join(dir, 'root-owned'), join(dir, 'home', 'lnk'));
    assert.throws(() => checkTrustedFolder(join(dir, 'home', 'lnk', 'state'), state), /home belongs to user nobody/);
  });

  test("a root link whose target is reached through a link in another user's folder is refused", () => {
    const dir = fresh();
    mkdirSync(join(dir, 'etc'));
    writeFileSync(join(dir, 'etc', 'q.yaml'), '', { mode: 0o644 });
    mkdirSync(join(dir, 'home'));
    chownSync(join(dir, 'home'), NOBODY, NOBODY);
    // root's link -> nobody's folder/l2 (a root link too) -> root's file: the middle one can be swapped by nobody.
    symlinkSync(join(dir, 'etc', 'q.yaml'), join(dir, 'home', 'l2'));
    symlinkSync(join(dir, 'home', 'l2'), join(dir, 'q.yaml'));
    assert.throws(() => checkTrustedFile(join(dir, 'q.yaml'), config), /home belongs to user nobody/);
  });

  test("a config of another user's is refused", () => {
    const dir = fresh();
    writeFileSync(join(dir, 'q.yaml'), '', { mode: 0o644 });
    chownSync(join(dir, 'q.yaml'), NOBODY, NOBODY);
    assert.throws(
      () => checkTrustedFile(join(dir, 'q.yaml'), config),
      /belongs to user nobody \(uid 65534\), not to root or qpswatch's user: that user could change what qpswatch/,
    );
  });

  test('ensureTrustedFolder makes what is missing, and refuses a part another user made first', () => {
    const dir = fresh();
    chmodSync(dir, 0o1777);
    ensureTrustedFolder(join(dir, 'a', 'b'), state);
    checkTrustedFolder(join(dir, 'a', 'b'), state);
    mkdirSync(join(dir, 'planted'));
    chownSync(join(dir, 'planted'), NOBODY, NOBODY);
    assert.throws(() => ensureTrustedFolder(join(dir, 'planted', 'x'), state), /planted belongs to user nobody/);
  });
});
