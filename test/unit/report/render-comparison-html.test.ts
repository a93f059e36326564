import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderComparison } from '../../../src/report/index.js';
import type { ComparisonView } from '../../../src/model/index.js';
import { rowVerdict, sampleView } from './sample-view.js';
import { joined } from '../../helpers/pattern.js';

function judged(): ComparisonView {
  const view = sampleView();
  const [first, second] = view.tests;
  first!.verdict = rowVerdict('regression', { pSlower: 0.01, pFaster: 1, low: 0.93, high: 0.98 });
  second!.verdict = rowVerdict('ok', { pSlower: 0.9, pFaster: 0.1 });
  return view;
}

describe('renderComparison html', () => {
  test('is one self-contained document: no script, no external resource, no style sheet', () => {
    const html = renderComparison(sampleView(), 'html');
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/);
    assert.match(html, /<title>qpswatch comparison: mariadb-10\.11\.10 vs mariadb-10\.11\.9<\/title>/);
    assert.match(html, /<\/body>\n<\/html>\n$/);
    assert.doesNotMatch(html, /<script|<style|<link|src=|href=|url\(|display:\s*(flex|grid)/i);
  });

  test('shows the relative QPS table with numbers right-aligned, and every per-op table', () => {
    const html = renderComparison(sampleView(), 'html');
    assert.match(
      html,
      joined(
        /<td align="left"[^>]*>point-query\.t1<\/td><td /,
        /align="right"[^>]*>12345<\/td><td /,
        /align="right"[^>]*>11800<\/td><td /,
        /align="right"[^>]*>0\.96<\/td>/,
      ),
    );
    assert.match(html, /<th align="right"[^>]*text-align:right">C\/B<\/th>/);
    assert.equal(html.match(/<thead>/g)?.length, 4);
  });

  test('draws the C/B chart: bars toned by verdict, intervals as whiskers, references at the threshold and 1', () => {
    const html = renderComparison(judged(), 'html');
    assert.match(html, />point-query\.t1<\/text><rect x="200" [^>]*fill="#cf222e"/);
    assert.match(html, />update-index\.t1<\/text><rect x="200" [^>]*fill="#2da44e"/);
    assert.match(html, /<title>point-query\.t1: 0\.96 \([0-9.]+-[0-9.]+\)<\/title>/);
    assert.match(html, /stroke-dasharray="4 3"\/><text[^>]*>0\.95<\/text>/);
    assert.match(html, /stroke-dasharray="4 3"\/><text[^>]*>1\.00<\/text>/);
    assert.match(html, /fill="#cf222e">0\.96 regression<\/text>/);
  });

  test('escapes names from the data everywhere, title included', () => {
    const view = sampleView();
    view.tests[0]!.test = '<script>alert("x")</script>';
    view.candidate.name = `<img src=x onerror='1'>&`;
    view.host = { 'a"b': '<b>' };
    const html = renderComparison(view, 'html');
    assert.doesNotMatch(html, /<script|<img|<b>/);
    assert.match(html, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;\.t1/);
    assert.match(
      html,
      /<title>qpswatch comparison: &lt;img src=x onerror=&#39;1&#39;&gt;&amp; vs mariadb-10\.11\.9<\/title>/,
    );
    assert.match(html, /host: a&quot;b=&lt;b&gt;/);
  });
});
