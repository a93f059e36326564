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

  test('draws the C/B chart: bars toned by verdict, references at the threshold and 1', () => {
    const html = renderComparison(judged(), 'html');
    // scale = 2611/2510 = 1.0402; 0.9558 / 1.0402 = 91.9 %, 0.95 / 1.0402 = 91.3 %, 1 / 1.0402 = 96.1 %
    assert.match(
      html,
      joined(
        /point-query\.t1<\/td><td /,
        /width="320"[^>]*><table[^>]*><tr><td width="91\.9%" /,
        /style="width:91\.9%;height:14px;background-color:#cf222e;/,
      ),
    );
    assert.match(
      html,
      joined(
        /update-index\.t1<\/td><td /,
        /width="320"[^>]*><table[^>]*><tr><td width="100\.0%" /,
        /style="width:100\.0%;height:14px;background-color:#2da44e;[^"]*">&nbsp;<\/td><\/tr>/,
      ),
    );
    assert.match(
      html,
      joined(
        />reference<\/td><td[^>]*><table[^>]*><tr><td /,
        /width="91\.3%"[^>]*border-right:2px /,
        /solid[^>]*>&nbsp;<\/td>.*>0\.95<\/td>/,
      ),
    );
    assert.match(html, />reference<\/td><td[^>]*><table[^>]*><tr><td width="96\.1%".*>1\.00<\/td>/);
    assert.match(html, /color:#cf222e">regression<\/td>/);
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
