import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { readTextFile, UnfitFileError, UnreadableFileError } from '../../../src/trust/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpsw-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const limits = { what: 'import file', maxBytes: 64 };

function unfit(file: string, message: string): void {
  assert.throws(
    () => readTextFile(file, limits),
    (err: unknown) => err instanceof UnfitFileError && err.message === message,
  );
}

describe('readTextFile', () => {
  test('UTF-8 text comes back as it is', () => {
    writeFileSync(join(dir, 'ok.csv'), 'a,b\nä,€\n');
    assert.equal(readTextFile(join(dir, 'ok.csv'), limits), 'a,b\nä,€\n');
  });

  test('a missing file is an UnreadableFileError with its errno', () => {
    assert.throws(
      () => readTextFile(join(dir, 'none.csv'), limits),
      (err: unknown) => err instanceof UnreadableFileError && err.code === 'ENOENT',
    );
  });

  test('a FIFO is refused at once, not waited on', () => {
    execFileSync('mkfifo', [join(dir, 'fifo.csv')]);
    // In a child: if the read blocked, the test would time out instead of failing.
    const code = `import('${join(process.cwd(), 'dist/src/trust/index.js')}').then((m) => {
      try { m.readTextFile(${JSON.stringify(join(dir, 'fifo.csv'))}, { what: 'f', maxBytes: 9 }); }
      catch (e) { console.log(e.message); }
    })`;
    const result = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(result.signal, null, 'the read hung');
    assert.match(result.stdout, /is not a regular file \(a FIFO\): name a regular file/);
  });

  test('a file over the limit is refused before it is read', () => {
    const file = join(dir, 'big.csv');
    writeFileSync(file, 'x'.repeat(65));
    unfit(
      file,
      `import file ${file} is 65 bytes, over the limit of 64 bytes for this file: name the right file, or split it`,
    );
  });

  test('a NUL byte and invalid UTF-8 are refused with their offset and line, the content never quoted', () => {
    const nul = join(dir, 'nul.csv');
    writeFileSync(nul, Buffer.from('a\nsecret\0'));
    unfit(
      nul,
      `import file ${nul} is not UTF-8 text: a NUL byte at byte 8 (line 2): name a text file, or save it as UTF-8`,
    );
    for (const [name, bytes, at] of [
      ['latin1.csv', [0x61, 0x0a, 0x0a, 0xe4, 0x62], 3],
      ['overlong.csv', [0xc0, 0xaf], 0],
      ['surrogate.csv', [0x61, 0xed, 0xa0, 0x80], 1],
      ['cut.csv', [0x61, 0xe2, 0x82], 1],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, Buffer.from(bytes));
      assert.throws(
        () => readTextFile(file, limits),
        (err: unknown) =>
          err instanceof UnfitFileError && err.message.includes(`a byte sequence that is not UTF-8 at byte ${at} `),
        name,
      );
    }
  });
});
