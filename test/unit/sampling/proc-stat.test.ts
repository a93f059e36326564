import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseProcStat, ProcParseError } from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

const fixture = (name: string): string => readFileSync(fixturePath('sampling', name), 'utf8');

describe('parseProcStat', () => {
  test('reads the real /proc/stat capture', () => {
    const stat = parseProcStat(fixture('proc-stat.txt'));
    assert.deepEqual(stat.cpu, {
      user: 30674,
      nice: 0,
      system: 3293,
      idle: 77475,
      iowait: 519,
      irq: 0,
      softirq: 166,
      steal: 618,
    });
    assert.equal(stat.cpus, 2);
    assert.equal(stat.ctxt, 427991);
  });

  test("reads this machine's /proc/stat", () => {
    const stat = parseProcStat(readFileSync('/proc/stat', 'utf8'));
    assert.ok(stat.cpus >= 1);
    assert.ok(stat.ctxt > 0);
    assert.ok(stat.cpu.idle + stat.cpu.user > 0);
  });

  const bad: Array<[string, RegExp, number]> = [
    ['proc-stat-truncated.txt', /line 2 \("cpu0 8898 0 1209 4"\).*needs 8 counters, it has 4/, 2],
    ['proc-stat-no-ctxt.txt', /no "ctxt" line/, 0],
    ['proc-stat-garbage.txt', /line 1 .*nice is "zero", not a counter/, 1],
    ['binary-garbage.bin', /no aggregate "cpu" line/, 0],
  ];
  for (const [name, message, lineNumber] of bad) {
    test(`refuses ${name} with a typed error naming the file and line`, () => {
      assert.throws(
        () => parseProcStat(fixture(name), `fixtures/${name}`),
        (err: unknown) => {
          assert.ok(err instanceof ProcParseError);
          assert.equal(err.file, `fixtures/${name}`);
          assert.equal(err.lineNumber, lineNumber);
          assert.match(err.message, message);
          assert.match(err.message, new RegExp(`^fixtures/${name.replace('.', '\\.')}: `));
          return true;
        },
      );
    });
  }

  test('refuses an empty file and a file with a cpu line but no cpuN lines', () => {
    assert.throws(() => parseProcStat(''), ProcParseError);
    assert.throws(() => parseProcStat('cpu  1 2 3 4 5 6 7 8\nctxt 9\n'), /no "cpuN" lines/);
  });

  test('refuses counters too large to hold exactly', () => {
    assert.throws(
      () => parseProcStat('cpu  99999999999999999999 0 0 0 0 0 0 0\ncpu0 1 0 0 0 0 0 0 0\nctxt 1\n'),
      /too large/,
    );
  });
});
