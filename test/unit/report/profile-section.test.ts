import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rankGrownFrames } from '../../../src/profile/index.js';
import { renderComparison, type ProfileReport } from '../../../src/report/index.js';
import { sampleView } from './sample-view.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

function report(): ProfileReport {
  const baseline = [{ stack: 'main;write', count: 8 }];
  const candidate = [
    { stack: `main;${HOSTILE};fdatasync`, count: 6 },
    { stack: 'main;write', count: 2 },
  ];
  return {
    title: 'Profile 3: point-query.t1, mariadb-10.11.10 (C) against mariadb-10.11.9 (B)',
    baselineName: 'mariadb-10.11.9',
    candidateName: 'mariadb-10.11.10',
    baseline: { tool: 'perf', samples: 8, stacks: baseline },
    candidate: { tool: 'perf', samples: 8, stacks: candidate },
    grown: rankGrownFrames(baseline, candidate),
  };
}

describe("a session report with its check's profile", () => {
  test('html draws the flame graph inline after the table, every frame name escaped, no script', () => {
    const html = renderComparison(sampleView(), 'html', report());
    const table = html.indexOf('grew (pts)');
    const svg = html.indexOf('<svg xmlns="http://www.w3.org/2000/svg"', table);
    assert.ok(table > 0 && svg > table, 'the table, then the flame graph');
    assert.match(
      html,
      /<h2[^>]*>Profile 3: point-query\.t1, mariadb-10\.11\.10 \(C\) against mariadb-10\.11\.9 \(B\)<\/h2>/,
    );
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.doesNotMatch(html, /<img|<script/i);
    assert.match(html, /<\/svg>\n<\/body>/);
  });

  test('text and markdown show the table and say where the flame graph is', () => {
    for (const format of ['text', 'md']) {
      const out = renderComparison(sampleView(), format, report());
      assert.match(out, /fdatasync/);
      assert.match(out, /drawn in the HTML report \(--format html\)/, format);
      assert.doesNotMatch(out, /<svg/);
    }
  });

  test('without a profile the report is as before', () => {
    assert.equal(renderComparison(sampleView(), 'html', undefined), renderComparison(sampleView(), 'html'));
    // The C/B chart is an SVG too; the flame graph's frames are not there.
    assert.doesNotMatch(renderComparison(sampleView(), 'html'), /Profile 3|fdatasync/);
  });
});
