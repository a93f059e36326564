import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isJournalStream, withPriority, withSyslogPrefix } from '../../../src/log/index.js';

describe('syslog priority prefixes', () => {
  const cases: Array<[line: string, expected: string]> = [
    ['{"level":10,"msg":"t"}', '<7>{"level":10,"msg":"t"}'],
    ['{"level":20,"msg":"d"}', '<7>{"level":20,"msg":"d"}'],
    ['{"level":30,"msg":"i"}', '<6>{"level":30,"msg":"i"}'],
    ['{"level":40,"msg":"w"}', '<4>{"level":40,"msg":"w"}'],
    ['{"level":50,"msg":"e"}', '<3>{"level":50,"msg":"e"}'],
    ['{"level":60,"msg":"f"}', '<2>{"level":60,"msg":"f"}'],
    ['not a record', 'not a record'],
  ];
  for (const [line, expected] of cases)
    test(`${line} -> ${expected.slice(0, 3)}`, () => assert.equal(withSyslogPrefix(line), expected));

  test('text outside the logger gets the priority on each line with content', () => {
    assert.equal(withPriority('qpswatch: bad\n\nUsage: x\n', 3), '<3>qpswatch: bad\n\n<3>Usage: x\n');
  });
});

describe('JOURNAL_STREAM names stderr', () => {
  const cases: Array<[value: string | undefined, stderr: { dev: number; ino: number } | undefined, expected: boolean]> =
    [
      ['8:1234', { dev: 8, ino: 1234 }, true],
      ['8:1234', { dev: 8, ino: 99 }, false],
      [undefined, { dev: 8, ino: 1234 }, false],
      ['8:1234', undefined, false],
      ['garbage', { dev: 8, ino: 1234 }, false],
    ];
  for (const [value, stderr, expected] of cases)
    test(`${String(value)} with ${JSON.stringify(stderr)}: ${expected}`, () =>
      assert.equal(isJournalStream(value, stderr), expected));
});
