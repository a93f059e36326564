import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { functionGrowth, judgeInstructionTest } from '../../../src/analysis/index.js';
import { instructionsSubject, renderInstructionsAlert } from '../../../src/notify/index.js';

const verdict = judgeInstructionTest({ test: 'point-query', threads: 1 }, [42_000, 42_001], [43_302, 43_305], 1.02);
const grown = functionGrowth(
  [{ name: 'JOIN::exec()', object: 'mariadbd', inclusive: 20_000, exclusive: 500 }],
  [
    { name: 'JOIN::exec()', object: 'mariadbd', inclusive: 21_300, exclusive: 500 },
    { name: '<img src=x onerror=alert(1)>\u001b[31m', object: 'evil.so', inclusive: 1_300, exclusive: 1_300 },
  ],
);
const content = {
  flavor: 'mariadb',
  upstream: 'demo',
  tag: 'mariadb-10.11.4',
  version: '10.11.4',
  counter: 'callgrind (valgrind-3.19.0)',
  tests: [{ kind: 'regression' as const, against: 'mariadb-10.11.3', verdict, grown }],
};

describe('the instructions email', () => {
  test('the subject names the worst test, its growth and what it was compared with', () => {
    assert.equal(
      instructionsSubject(content),
      'qpswatch: mariadb 10.11.4 instructions per query grew: point-query.t1 +3.1% of mariadb-10.11.3',
    );
    assert.match(
      instructionsSubject({ ...content, tests: [{ ...content.tests[0]!, kind: 'drift', against: 'mariadb-10.11.1' }] }),
      /\+3\.1% of base mariadb-10\.11\.1$/,
    );
  });

  test('lists the test with its ratio and the functions that grew; names are inert in text, escaped in HTML', () => {
    const mail = renderInstructionsAlert(content);
    assert.match(mail.text, /Against the last good mariadb-10\.11\.3/);
    assert.match(mail.text, /point-query\.t1 .* 1\.0310 .* regression \(> 1\.02\)/);
    // The report's table of where it grew: both sides inclusive, the growth and its share of the test, then self.
    assert.match(mail.text, /JOIN::exec\(\)\s+mariadbd\s+20,000\s+21,300\s+\+1,300\s+\+3\.10%\s+500\s+500\s+0\n/);
    assert.ok(mail.text.includes('\\x1b[31m'), 'an escape sequence is shown, not sent');
    assert.ok(!mail.html.includes('<img'), 'no markup from a symbol name');
    assert.ok(mail.html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.match(mail.html, /qpswatch accept, ack or invalid TAG/);
  });
});
