import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HistoryView } from '../../../src/model/index.js';
import { bisectionSummary, renderHistory } from '../../../src/report/index.js';
import { sampleHistory } from './sample-history.js';

const HOSTILE = '<script>alert(1)</script> & "quotes" *bold* [x](y) \u001b[31m';

function withBisections(): HistoryView {
  return {
    ...sampleHistory(),
    bisections: [
      {
        tag: 'mariadb-10.11.3',
        outcome: 'found',
        firstBad: { commit: 'abc1234'.padEnd(40, '0'), subject: HOSTILE, author: `O'Brien <b>x</b>` },
        candidates: 0,
        builds: 5,
      },
      { tag: 'mariadb-10.11.4', outcome: 'budget', candidates: 6, builds: 12 },
      { tag: 'mariadb-10.11.5', outcome: 'failed', candidates: 0, builds: 0, error: 'not an ancestor' },
    ],
  };
}

test('one line per bisection: the first bad commit with its subject quoted, author and builds, or why not', () => {
  const lines = withBisections().bisections!.map(bisectionSummary);
  assert.equal(
    lines[0],
    `first bad commit abc1234 "<script>alert(1)</script> & \\"quotes\\" *bold* [x](y) \\u001b[31m" by ` +
      `O'Brien <b>x</b> (5 builds)`,
  );
  assert.equal(lines[1], 'bisect could not decide (budget), 6 commit(s) left (12 builds)');
  assert.equal(lines[2], 'bisect failed: not an ancestor (0 builds)');
});

test('the history report shows the bisections in text, md and html, subjects and authors escaped', () => {
  const text = renderHistory(withBisections(), 'text');
  assert.match(text, /Bisections \(the newest of each release\)/);
  assert.match(text, /mariadb-10\.11\.3: first bad commit abc1234 /);
  assert.ok(!text.includes('\u001b'));
  const md = renderHistory(withBisections(), 'md');
  assert.ok(md.includes('- mariadb-10.11.3: first bad commit abc1234'));
  assert.ok(!md.includes('*bold*'), 'markdown emphasis is escaped');
  const html = renderHistory(withBisections(), 'html');
  assert.ok(!html.includes('<script>') && !html.includes('<b>x</b>'));
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\&quot;quotes\\&quot;'));
  assert.ok(html.includes('O&#39;Brien &lt;b&gt;x&lt;/b&gt; (5 builds)'));
  assert.ok(JSON.parse(renderHistory(withBisections(), 'json')).bisections.length === 3);
});

test('a history without bisections has no such section', () => {
  assert.ok(!renderHistory(sampleHistory(), 'text').includes('Bisections'));
});
