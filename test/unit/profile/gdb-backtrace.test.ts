import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gdbFrame, parseGdbBacktraces } from '../../../src/profile/index.js';

/** Two attaches of gdb's `thread apply all bt`, trimmed: the threads' backtraces, innermost frame first. */
const BACKTRACES = `[New LWP 5646]
0x00007f5d03f1a26f in __GI___poll (fds=0x5564a0671c38, nfds=2, timeout=-1) at ../poll.c:29

Thread 2 (Thread 0x7f5ced4ce6c0 (LWP 5670) "mariadbd"):
#0  __futex_abstimed_wait_common64 (private=0, cancel=true) at ./nptl/futex-internal.c:57
#1  0x0000556483a01b7d in do_handle_one_connection(CONNECT*, bool) ()
#2  0x0000556483d2c647 in ?? ()
#3  0x00007f5d03ea71f5 in start_thread (arg=<optimized out>) at ./nptl/pthread_create.c:442

Thread 1 (Thread 0x7f5d03 (LWP 5644) "mariadbd"):
#0  0x00007f5d03f1a26f in fdatasync () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x0000556483a01b7d in <script>x</script> ()
Thread 2 (Thread 0x7f5ced4ce6c0 (LWP 5670) "mariadbd"):
#0  __futex_abstimed_wait_common64 (private=0, cancel=true) at ./nptl/futex-internal.c:57
#1  0x0000556483a01b7d in do_handle_one_connection(CONNECT*, bool) ()
#2  0x0000556483d2c647 in ?? ()
#3  0x00007f5d03ea71f5 in start_thread (arg=<optimized out>) at ./nptl/pthread_create.c:442
`;

describe('parseGdbBacktraces', () => {
  test("each thread's backtrace is a sample, root first; equal backtraces of two attaches fold together", () => {
    assert.deepEqual(parseGdbBacktraces(BACKTRACES), [
      { stack: '<script>x</script>;fdatasync', count: 1 },
      {
        stack: 'start_thread;[unknown];do_handle_one_connection;__futex_abstimed_wait_common64',
        count: 2,
      },
    ]);
  });
});

describe('gdbFrame', () => {
  for (const [text, name] of [
    ['do_command(THD*, bool) (thd=0x1) at sql_parse.cc:1', 'do_command'],
    ['std::vector<int>::push_back(int const&) ()', 'std::vector<int>::push_back'],
    ['?? ()', '[unknown]'],
    ['fdatasync () from /lib/libc.so.6', 'fdatasync'],
    ['operator() ()', 'operator'],
  ] as const) {
    test(`${text} → ${name}`, () => assert.equal(gdbFrame(text), name));
  }
});
