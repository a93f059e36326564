import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsePerfScript } from '../../../src/profile/index.js';

/** As `perf script -F comm,tid,ip,sym,dso` prints samples: a header, the chain leaf first, a blank line. */
const SCRIPT = `mariadbd  5670
\t    ffffffff8178c393 ext4_sync_file+0x683 ([kernel.kallsyms])
\t    ffffffff816d95c3 __x64_sys_fdatasync+0xa3 ([kernel.kallsyms])
\t              f64c7 fdatasync+0x57 (/usr/lib/x86_64-linux-gnu/libc.so.6)
\t             d5d652 [unknown] (/usr/sbin/mariadbd)
\t             a7aee4 ha_commit_trans+0x274 (/usr/sbin/mariadbd)

mariadbd  5670
\t    ffffffff8178c393 ext4_sync_file+0x683 ([kernel.kallsyms])
\t    ffffffff816d95c3 __x64_sys_fdatasync+0xa3 ([kernel.kallsyms])
\t              f64c7 fdatasync+0x57 (/usr/lib/x86_64-linux-gnu/libc.so.6)
\t             d5d652 [unknown] (/usr/sbin/mariadbd)
\t             a7aee4 ha_commit_trans+0x274 (/usr/sbin/mariadbd)

mariadbd  5671
\t              96310 <script>alert(1)</script>;x+0x1f0 (/tmp/evil lib.so)
\t                  0 [unknown] ([unknown])
`;

describe('parsePerfScript', () => {
  test('folds samples root first, names unnamed code after its binary, and counts equal stacks once', () => {
    assert.deepEqual(parsePerfScript(SCRIPT), [
      {
        stack: '[unknown];<script>alert(1)</script>,x',
        count: 1,
      },
      {
        stack: 'ha_commit_trans;[mariadbd];fdatasync;__x64_sys_fdatasync;ext4_sync_file',
        count: 2,
      },
    ]);
  });

  test('a last sample without a blank line after it is kept; nothing but headers gives no stacks', () => {
    assert.deepEqual(parsePerfScript('mysqld 1\n\t 1 f+0x1 (/x)'), [{ stack: 'f', count: 1 }]);
    assert.deepEqual(parsePerfScript('mysqld 1\nmysqld 2\n\n'), []);
  });
});
