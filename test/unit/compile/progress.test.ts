import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileProgressReader, parseProgressLine, type CompileProgress } from '../../../src/compile/progress.js';

test('ninja and make progress lines, as the tools print them, give the share done; other lines give nothing', () => {
  const cases: Array<[string, CompileProgress | undefined]> = [
    [
      '[1/4512] Building C object extra/wolfssl/CMakeFiles/wolfssl.dir/wolfssl/src/ssl.c.o',
      { done: 1, total: 4512, ratio: 1 / 4512 },
    ],
    ['[2256/4512] Building CXX object sql/CMakeFiles/sql.dir/handler.cc.o', { done: 2256, total: 4512, ratio: 0.5 }],
    ['[4512/4512] Linking CXX executable sql/mariadbd', { done: 4512, total: 4512, ratio: 1 }],
    ['[  0%] Building C object strings/CMakeFiles/strings.dir/ctype.c.o', { done: null, total: null, ratio: 0 }],
    ['[ 42%] Built target mysys', { done: null, total: null, ratio: 0.42 }],
    ['[100%] Linking CXX executable demo-server', { done: null, total: null, ratio: 1 }],
    ['-- Configuring done (12.3s)', undefined],
    ['/src/sql/handler.cc:42:7: warning: unused variable [-Wunused-variable]', undefined],
    ['[5/3] impossible', undefined],
    ['[0/0] nothing', undefined],
    ['[101%] odd', undefined],
    ['  [ 42%] indented is not a status line', undefined],
    ['make[2]: Leaving directory', undefined],
  ];
  for (const [line, expected] of cases) assert.deepEqual(parseProgressLine(line), expected, line);
});

test('the reader takes chunks cut anywhere and reports only forward steps', () => {
  const seen: number[] = [];
  const read = compileProgressReader((p) => seen.push(p.ratio));
  read('[ 10%] Building C object a.c.o\n[ 2');
  read('0%] Building C object b.c.o\r\n[ 15%] Built target c\nwarning: x\n');
  read('[ 20%] again\n[100%] Built target d');
  assert.deepEqual(seen, [0.1, 0.2], 'the last line has no newline yet');
  read('\n');
  assert.deepEqual(seen, [0.1, 0.2, 1]);
});
