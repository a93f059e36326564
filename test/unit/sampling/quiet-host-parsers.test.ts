import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseLoadavg, parseMeminfo, parseVmstat, ProcParseError, readGovernors } from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

const fixture = (name: string): string => readFileSync(fixturePath('sampling', name), 'utf8');

type Parser = (text: string, file: string) => unknown;

function refuses(parse: Parser, name: string, lineNumber: number, message: RegExp): void {
  test(`refuses ${name} with a typed error naming the file and line`, () => {
    assert.throws(
      () => parse(fixture(name), `fixtures/${name}`),
      (err: unknown) => {
        assert.ok(err instanceof ProcParseError);
        assert.equal(err.file, `fixtures/${name}`);
        assert.equal(err.lineNumber, lineNumber);
        assert.match(err.message, message);
        assert.ok(err.message.startsWith(`fixtures/${name}: `));
        return true;
      },
    );
  });
}

describe('parseMeminfo', () => {
  test('reads the real /proc/meminfo capture, kB to bytes', () => {
    assert.deepEqual(parseMeminfo(fixture('meminfo.txt')), {
      totalBytes: 24683656 * 1024,
      availableBytes: 24050780 * 1024,
    });
  });
  test("reads this machine's /proc/meminfo", () => {
    const m = parseMeminfo(readFileSync('/proc/meminfo', 'utf8'));
    assert.ok(m.totalBytes > 2 ** 28 && m.availableBytes > 0 && m.availableBytes <= m.totalBytes);
  });
  refuses(parseMeminfo, 'meminfo-truncated.txt', 3, /MemAvailable has unit "k", expected kB/);
  refuses(parseMeminfo, 'meminfo-garbage.txt', 5, /Cached is "lots", not a counter/);
  refuses(parseMeminfo, 'meminfo-no-available.txt', 0, /no "MemAvailable" line/);
  refuses(parseMeminfo, 'binary-garbage.bin', 1, /expected "Name: value kB"/);
  test('refuses an empty file', () => {
    assert.throws(() => parseMeminfo(''), /no "MemTotal" line/);
  });
});

describe('parseVmstat', () => {
  test('reads the real /proc/vmstat capture', () => {
    assert.deepEqual(parseVmstat(fixture('vmstat.txt')), { pswpin: 0, pswpout: 0 });
  });
  test('reads swap counters among the others', () => {
    assert.deepEqual(parseVmstat('nr_free_pages 12\npswpin 7\npswpout 9\n'), { pswpin: 7, pswpout: 9 });
  });
  refuses(parseVmstat, 'vmstat-truncated.txt', 75, /line 75 \("pswpin"\).*expected "name counter"/);
  refuses(parseVmstat, 'vmstat-garbage.txt', 76, /expected "name counter"/);
  refuses(parseVmstat, 'binary-garbage.bin', 1, /expected "name counter"/);
  test('refuses a file without pswpout and a negative counter', () => {
    assert.throws(() => parseVmstat('pswpin 1\n'), /no "pswpout" line/);
    assert.throws(() => parseVmstat('pswpin -1\npswpout 0\n'), /pswpin is "-1", not a counter/);
  });
});

describe('parseLoadavg', () => {
  test('reads the real /proc/loadavg capture', () => {
    assert.deepEqual(parseLoadavg(fixture('loadavg.txt')), { load1: 2.48, load5: 3.96, load15: 4.49 });
  });
  refuses(parseLoadavg, 'loadavg-truncated.txt', 1, /expected "load1 load5 load15 running\/total lastpid"/);
  refuses(parseLoadavg, 'loadavg-garbage.txt', 1, /line 1 \("2\.48 3\.96 x 3\/121 1813"\)/);
  refuses(parseLoadavg, 'binary-garbage.bin', 1, /expected "load1/);
  test('refuses an empty file', () => {
    assert.throws(
      () => parseLoadavg('', 'x'),
      (err: unknown) => err instanceof ProcParseError && err.lineNumber === 0,
    );
  });
});

describe('readGovernors', () => {
  test('a 2-socket host with cpufreq on cpu0 only', () => {
    assert.deepEqual(readGovernors(fixturePath('sampling', 'sys-cpu-2s-smt')), ['performance']);
  });
  test('no cpufreq folder, or no folder at all, is "none"', () => {
    assert.deepEqual(readGovernors(fixturePath('sampling', 'sys-node-2')), ['none']);
    assert.deepEqual(readGovernors('/nonexistent/qpswatch'), ['none']);
  });
});
