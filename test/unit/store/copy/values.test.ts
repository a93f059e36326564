import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { columnKind, keyText, sameValue, toTarget } from '../../../../src/store/copy/values.js';

describe('store copy: values', () => {
  test('each MySQL type of the schema has its kind', () => {
    const cases: Array<[string, string]> = [
      ['bigint', 'integer'],
      ['tinyint', 'integer'],
      ['double', 'real'],
      ['varchar', 'text'],
      ['longtext', 'text'],
      ['text', 'text'],
      ['longblob', 'blob'],
      ['BIGINT', 'integer'],
    ];
    for (const [type, kind] of cases) assert.equal(columnKind(type), kind, type);
  });

  test('an SQLite value is sent as its column kind; text in an integer column cannot be', () => {
    const cases: Array<[Parameters<typeof toTarget>[0], Parameters<typeof toTarget>[1], unknown]> = [
      [42n, 'integer', 42],
      [2n ** 63n - 1n, 'integer', '9223372036854775807'],
      [7, 'integer', 7],
      [1.5, 'integer', undefined],
      ['12', 'integer', undefined],
      [3n, 'real', 3],
      [0.1 + 0.2, 'real', 0.30000000000000004],
      ['2026-12-02T10:00:00.000Z', 'text', '2026-12-02T10:00:00.000Z'],
      [5n, 'text', '5'],
      [Buffer.from('ab'), 'blob', Buffer.from('ab')],
      ['ab', 'blob', Buffer.from('ab')],
      [null, 'text', null],
      [null, 'integer', null],
    ];
    for (const [value, kind, sent] of cases) assert.deepEqual(toTarget(value, kind), sent, `${String(value)} ${kind}`);
  });

  test('a stored value equals the sent one exactly: no rounding, no padding, NULL only as NULL', () => {
    assert.ok(sameValue(5, 5, 'integer'));
    assert.ok(sameValue('9223372036854775807', '9223372036854775807', 'integer'));
    assert.ok(sameValue(900.9666666666667, 900.9666666666667, 'real'));
    assert.ok(!sameValue(900.9666666666667, 900.9666666666668, 'real'));
    assert.ok(sameValue('x', 'x', 'text'));
    assert.ok(!sameValue('x', 'x ', 'text'));
    assert.ok(sameValue(null, null, 'text'));
    assert.ok(!sameValue(null, '', 'text'));
    assert.ok(!sameValue(0, null, 'integer'));
    assert.ok(sameValue(Buffer.from([1, 2]), Buffer.from([1, 2]), 'blob'));
    assert.ok(!sameValue(Buffer.from([1, 2]), Buffer.from([1, 3]), 'blob'));
  });

  test('a key is the same text from either side', () => {
    assert.equal(keyText([5, 'Innodb_rows_read']), keyText(['5', 'Innodb_rows_read']));
    assert.notEqual(keyText([5, 'a']), keyText([5, 'b']));
  });
});
