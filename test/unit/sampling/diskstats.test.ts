import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseDiskstats, ProcParseError } from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

const fixture = (name: string): string => readFileSync(fixturePath('sampling', name), 'utf8');

describe('parseDiskstats', () => {
  test('reads the real /proc/diskstats capture (17 counters per line, kernel 6.x)', () => {
    const disks = parseDiskstats(fixture('diskstats.txt'));
    assert.deepEqual(
      disks.map((d) => d.name),
      ['loop0', 'loop1', 'loop2', 'loop3', 'loop4', 'loop5', 'loop6', 'loop7', 'vda', 'zram0'],
    );
    const vda = disks.find((d) => d.name === 'vda');
    assert.deepEqual(vda, {
      major: 254,
      minor: 0,
      name: 'vda',
      readsCompleted: 35615,
      readsMerged: 7307,
      sectorsRead: 2298834,
      msReading: 19659,
      writesCompleted: 16420,
      writesMerged: 12401,
      sectorsWritten: 1257560,
      msWriting: 6205,
      iosInProgress: 0,
      msDoingIo: 9224,
      weightedMsDoingIo: 28223,
    });
  });

  test('reads the older 14-field layout', () => {
    const [d] = parseDiskstats('   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n');
    assert.equal(d?.sectorsWritten, 7);
    assert.equal(d?.weightedMsDoingIo, 11);
  });

  test("reads this machine's /proc/diskstats", () => {
    const disks = parseDiskstats(readFileSync('/proc/diskstats', 'utf8'));
    assert.ok(disks.length > 0);
    for (const d of disks) assert.ok(Number.isInteger(d.sectorsRead) && d.sectorsRead >= 0);
  });

  const bad: Array<[string, RegExp, number]> = [
    ['diskstats-truncated.txt', /line 9 \(" *254 +0 vda 35615 7307 2298834 19659 ?"\).*needs 14 fields, it has 7/, 9],
    ['diskstats-garbage.txt', /line 9 .*readsCompleted is "12x", not a counter/, 9],
    ['binary-garbage.bin', /line 1 .*needs 14 fields/, 1],
  ];
  for (const [name, message, lineNumber] of bad) {
    test(`refuses ${name} with a typed error naming the file and line`, () => {
      assert.throws(
        () => parseDiskstats(fixture(name), `fixtures/${name}`),
        (err: unknown) => {
          assert.ok(err instanceof ProcParseError);
          assert.equal(err.file, `fixtures/${name}`);
          assert.equal(err.lineNumber, lineNumber);
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }

  test('refuses an empty file and a line whose device name is not one', () => {
    assert.throws(() => parseDiskstats('\n'), /the file is empty/);
    assert.throws(() => parseDiskstats('8 0 s/a 1 2 3 4 5 6 7 8 9 10 11\n'), /"s\/a" is not a device name/);
  });
});
