import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickFailureLines } from '../../../src/compile/index.js';

test("picks compiler, linker and CMake errors in output order, then make's and ninja's", () => {
  const output = [
    '[ 50%] Building C object CMakeFiles/x.dir/x.c.o',
    '../x.c: In function ‘main’:',
    '../x.c:5:12: warning: unused variable ‘y’ [-Wunused-variable]',
    '../x.c:9:3: error: expected ‘;’ before ‘}’ token',
    'In file included from ../a.h:1:',
    '../b.h:2:10: fatal error: c.h: No such file or directory',
    "x.c:(.text+0x1b): undefined reference to `missing_fn'",
    'make[2]: *** [CMakeFiles/x.dir/build.make:76: CMakeFiles/x.dir/x.c.o] Error 1',
    'FAILED: CMakeFiles/x.dir/x.c.o ',
    'CMake Error at CMakeLists.txt:7 (message):',
    '  qpswatch demo: /usr/sbin/mariadbd not found',
    '',
    'error handling improved in this release (a log line, not an error)',
  ].join('\n');
  assert.deepEqual(pickFailureLines(output), [
    '../x.c:9:3: error: expected ‘;’ before ‘}’ token',
    '../b.h:2:10: fatal error: c.h: No such file or directory',
    "x.c:(.text+0x1b): undefined reference to `missing_fn'",
    'CMake Error at CMakeLists.txt:7 (message):',
    'qpswatch demo: /usr/sbin/mariadbd not found',
    'make[2]: *** [CMakeFiles/x.dir/build.make:76: CMakeFiles/x.dir/x.c.o] Error 1',
    'FAILED: CMakeFiles/x.dir/x.c.o',
  ]);
});

test('keeps at most a dozen lines: the first ones are the cause, the rest fallout', () => {
  const output = ['FAILED: f.c.o', ...Array.from({ length: 50 }, (_, i) => `f.c:${i + 1}:1: error: e${i}`)].join('\n');
  const picked = pickFailureLines(output);
  assert.equal(picked.length, 12);
  assert.equal(picked[0], 'f.c:1:1: error: e0');
});

test('nothing to pick in a clean log', () => {
  assert.deepEqual(pickFailureLines('-- Configuring done\n-- Generating done\n'), []);
});

test('a full disk is a cause, whichever tool met it', () => {
  const output = [
    '/usr/bin/ld: final link failed: No space left on device',
    'collect2: error: ld returned 1 exit status',
    'make[2]: *** [x] Error 1',
  ].join('\n');
  assert.deepEqual(pickFailureLines(output), [
    '/usr/bin/ld: final link failed: No space left on device',
    'collect2: error: ld returned 1 exit status',
    'make[2]: *** [x] Error 1',
  ]);
});

test('escape sequences in a compiler line come out escaped: nothing a terminal would obey', () => {
  const output = '../x.c:3:2: error: #error "\x1b]0;pwned\x07\x1b[2J\x9b31m"\n';
  const [line] = pickFailureLines(output);
  assert.equal(line, '../x.c:3:2: error: #error "\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m"');
  assert.doesNotMatch(line!, /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
});
