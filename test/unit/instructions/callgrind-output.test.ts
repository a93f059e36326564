import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CallgrindOutputError,
  callgrindArgv,
  parseCallgrindOutput,
  parseValgrindVersion,
  perQueryFunctions,
} from '../../../src/instructions/index.js';

/**
 * As callgrind 3.19 writes a profile with --dump-line=no and its default compression: names defined once as "(id)
 * name" and used as "(id)", relative positions, a call's line followed by the one cost line of its inclusive cost,
 * a call into another object (cob=), a recursion level (fn'2) and jump lines.
 */
const PROFILE = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 8256
cmd:  mariadbd --defaults-file=/tmp/my.cnf --user=mysql
part: 1

desc: Trigger: Program termination

positions: line
events: Ir
summary: 1150

ob=(1) /usr/sbin/mariadbd
fl=(1) ???
fn=(1) dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)
0 100
cfn=(2) mysql_execute_command(THD*, bool)
calls=2 0
0 900
cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6
cfi=(2) ./string/memcpy.S
cfn=(3) __memcpy_avx_unaligned_erms
calls=4 0
0 40
jump=2 +3
+2 10

fn=(2)
0 500
cfn=(4) JOIN::exec()
calls=1 0
0 400

fn=(4)
0 300
cfn=(5) JOIN::exec()'2
calls=1 0
0 100

fn=(5)
* 100

ob=(2)
fl=(2)
fn=(3)
0 40

totals: 1150
`;

describe('parseCallgrindOutput', () => {
  test('each function gets its own instructions and those of its calls, recursion counted once', () => {
    const profile = parseCallgrindOutput(PROFILE);
    assert.equal(profile.instructions, 100 + 10 + 500 + 300 + 100 + 40);
    const byName = new Map(profile.functions.map((f) => [f.name, f]));
    const dispatch = byName.get('dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)');
    assert.deepEqual(dispatch, {
      name: 'dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)',
      object: 'mariadbd',
      self: 110,
      inclusive: 110 + 900 + 40,
    });
    assert.deepEqual(byName.get('mysql_execute_command(THD*, bool)'), {
      name: 'mysql_execute_command(THD*, bool)',
      object: 'mariadbd',
      self: 500,
      inclusive: 900,
    });
    // JOIN::exec's second recursion level is JOIN::exec: its own 100 count once, its call to itself not again.
    assert.deepEqual(byName.get('JOIN::exec()'), {
      name: 'JOIN::exec()',
      object: 'mariadbd',
      self: 400,
      inclusive: 400,
    });
    assert.deepEqual(byName.get('__memcpy_avx_unaligned_erms'), {
      name: '__memcpy_avx_unaligned_erms',
      object: 'libc.so.6',
      self: 40,
      inclusive: 40,
    });
    assert.deepEqual(
      profile.functions.map((f) => f.inclusive),
      [1050, 900, 400, 40],
      'largest inclusive first',
    );
  });

  test('a cost line with more events reads Ir from its column; a missing cost is 0', () => {
    const text = `# callgrind format
positions: instr line
events: Dr Ir
fn=(1) f
0x10 0 5 7
+4 0 9
+4 0
`;
    assert.deepEqual(parseCallgrindOutput(text).functions, [{ name: 'f', object: '', self: 7, inclusive: 7 }]);
  });

  test('what is not callgrind output, or breaks its rules, is refused with the line', () => {
    assert.throws(() => parseCallgrindOutput('hello\n'), CallgrindOutputError);
    assert.throws(
      () => parseCallgrindOutput('# callgrind format\nevents: Ir\nfn=(3)\n0 1\n'),
      (e: unknown) => e instanceof CallgrindOutputError && /line 3.*\(3\) is used before it is named/.test(e.message),
    );
    assert.throws(
      () => parseCallgrindOutput('# callgrind format\nevents: Ir\nfn=(1) f\n0 -5\n'),
      /the cost "-5" is not a count/,
    );
    assert.throws(() => parseCallgrindOutput('# callgrind format\nevents: Dr\nfn=(1) f\n0 1\n'), /names no Ir/);
  });

  test('an empty profile (the binary did not name the dispatcher) counts nothing', () => {
    const text = '# callgrind format\nversion: 1\npositions: line\nevents: Ir\nsummary: 0\n\n\ntotals: 0\n';
    assert.deepEqual(parseCallgrindOutput(text), { instructions: 0, functions: [] });
  });
});

describe('perQueryFunctions', () => {
  test("divides by the queries; leaves out what is under the share of the run, and the dispatcher's callers", () => {
    const functions = [
      { name: 'big', object: 'mariadbd', self: 2000, inclusive: 1_000_000 },
      { name: 'tiny', object: 'mariadbd', self: 99, inclusive: 99 },
      { name: 'edge', object: 'libc.so.6', self: 100, inclusive: 100 },
      { name: 'do_command(THD*, bool)', object: 'mariadbd', self: 0, inclusive: 1_000_000 },
    ];
    assert.deepEqual(perQueryFunctions(functions, 1_000_000, 100), [
      { name: 'big', object: 'mariadbd', inclusive: 10_000, exclusive: 20 },
      { name: 'edge', object: 'libc.so.6', inclusive: 1, exclusive: 1 },
    ]);
    assert.deepEqual(perQueryFunctions(functions, 1_000_000, 0), []);
  });
});

describe('callgrind command line', () => {
  const title =
    "counts only the dispatcher, zeroed at each connection, into the lane's file, without gdbserver, past an exec";
  test(title, () => {
    assert.deepEqual(callgrindArgv('/usr/bin/valgrind', '/state/work/x.callgrind'), [
      '/usr/bin/valgrind',
      '--tool=callgrind',
      '--toggle-collect=dispatch_command(*',
      '--zero-before=thd_prepare_connection(*',
      '--callgrind-out-file=/state/work/x.callgrind',
      '--dump-line=no',
      '--vgdb=no',
      '--trace-children=yes',
    ]);
  });

  test('valgrind --version is read as numbers; anything else is not a version', () => {
    assert.deepEqual(parseValgrindVersion('valgrind-3.19.0\n'), [3, 19, 0]);
    assert.deepEqual(parseValgrindVersion('valgrind-3.22'), [3, 22, 0]);
    assert.equal(parseValgrindVersion('command not found'), undefined);
  });
});
