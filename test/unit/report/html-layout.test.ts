import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, left, makeTable, renderHtmlDocument, renderHtmlTable, right } from '../../../src/report/index.js';
import { joined } from '../../helpers/pattern.js';

describe('escapeHtml', () => {
  const cases: [string, string][] = [
    ['point-query.t1', 'point-query.t1'],
    ['<script>', '&lt;script&gt;'],
    ['a & b', 'a &amp; b'],
    ['&amp;', '&amp;amp;'],
    [`"double" 'single'`, '&quot;double&quot; &#39;single&#39;'],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      assert.equal(escapeHtml(input), expected);
    });
  }
});

describe('renderHtmlTable', () => {
  test('aligns each cell as its column says, header included, and escapes cells', () => {
    const table = makeTable([left('test'), right('C/B')], [['a<b', '0.96']]);
    const html = renderHtmlTable(table).join('\n');
    assert.match(
      html,
      joined(
        /<th align="left" style="[^"]*text-align:left">test<\/th><th /,
        /align="right" style="[^"]*text-align:right">C\/B<\/th>/,
      ),
    );
    assert.match(
      html,
      joined(
        /<tr><td align="left" style="[^"]*">a&lt;b<\/td><td /,
        /align="right" /,
        /style="[^"]*text-align:right">0\.96<\/td><\/tr>/,
      ),
    );
  });
});

describe('renderHtmlDocument', () => {
  test('headings, lines and the title, escaped; control characters spelled out as in the text layout', () => {
    const html = renderHtmlDocument('a <b> title', [
      { kind: 'heading', level: 1, text: 'H & 1' },
      { kind: 'heading', level: 2, text: 'H2' },
      { kind: 'lines', lines: ['one\ttab', 'two'] },
    ]);
    assert.match(html, /<title>a &lt;b&gt; title<\/title>/);
    assert.match(html, /<h1 style="[^"]*">H &amp; 1<\/h1>\n<h2 style="[^"]*">H2<\/h2>/);
    assert.match(html, /<p style="[^"]*">one\\ttab<br>\ntwo<\/p>/);
  });

  test('every element is styled inline: no style sheet, no class', () => {
    const html = renderHtmlDocument('t', [{ kind: 'table', table: makeTable([left('a')], [['1']]) }]);
    assert.doesNotMatch(html, /<style|class=/);
    for (const tag of html.match(/<(body|h1|h2|p|table|th|td)\b[^>]*>/g) ?? []) assert.match(tag, /style="/, tag);
  });
});
