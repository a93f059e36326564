import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderAlert, type AlertProfile } from '../../../src/notify/index.js';
import { regressionAlert } from './sample-alert.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

function takenProfile(): AlertProfile {
  return {
    kind: 'taken',
    id: 7,
    test: 'point-query',
    threads: 1,
    baseline: { name: 'mariadb-10.11.9', samples: 1000, tool: 'perf' },
    candidate: { name: 'mariadb-10.11.10', samples: 1200, tool: 'perf' },
    grown: [
      {
        frame: HOSTILE,
        baselineSelf: 0.01,
        candidateSelf: 0.2,
        baselineTotal: 0.02,
        candidateTotal: 0.3,
        totalGrowth: 0.28,
        selfGrowth: 0.19,
      },
      {
        frame: 'fdatasync\u001b[31m',
        baselineSelf: 0,
        candidateSelf: 0.05,
        baselineTotal: 0.1,
        candidateTotal: 0.15,
        totalGrowth: 0.05,
        selfGrowth: 0.05,
      },
    ],
    flameGraph: '/var/lib/qpswatch/profiles/7/flame-graph.svg',
    page: '/var/lib/qpswatch/profiles/7/profile.html',
    sessionId: 42,
  };
}

describe('renderAlert with a profile', () => {
  test('the text part carries the table of grown frames, the shares and the flame graph path', () => {
    const { text } = renderAlert(regressionAlert({ profile: takenProfile() }));
    assert.match(text, /Where the time went: differential profile/);
    assert.match(text, /Profile 7 of point-query\.t1, the worst regressed test/);
    assert.match(text, /B mariadb-10\.11\.9: 1000 samples \(perf\); C mariadb-10\.11\.10: 1200 samples \(perf\)/);
    assert.match(text, /function\s+B total\s+C total\s+grew \(pts\)\s+B self\s+C self\s+self grew/);
    assert.match(text, /<img src=x onerror=alert\(1\)>\s+2\.0%\s+30\.0%\s+\+28\.0\s+1\.0%\s+20\.0%\s+\+19\.0/);
    assert.match(text, /flame graph: \/var\/lib\/qpswatch\/profiles\/7\/flame-graph\.svg/);
    assert.match(text, /qpswatch show 42 --format html/);
    // A terminal escape in a symbol name is printed, not obeyed.
    assert.doesNotMatch(text, /\u001b/);
  });

  test('the HTML part escapes every frame name and keeps the table and the path', () => {
    const { html } = renderAlert(regressionAlert({ profile: takenProfile() }));
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(html, /<td[^>]*>\+28\.0<\/td>/);
    assert.match(html, /\/var\/lib\/qpswatch\/profiles\/7\/profile\.html/);
  });

  test('no profile: one line says why, in both parts', () => {
    const profile: AlertProfile = { kind: 'none', reason: 'perf is not installed; gdb is not installed' };
    const { text, html } = renderAlert(regressionAlert({ profile }));
    assert.match(text, /\nNo profile: perf is not installed; gdb is not installed\n/);
    assert.match(html, /No profile: perf is not installed; gdb is not installed/);
    assert.doesNotMatch(text, /B total/);
  });

  test('a hostile reason stays text in the HTML part', () => {
    const { html } = renderAlert(
      regressionAlert({ profile: { kind: 'none', reason: `profiling failed: ${HOSTILE}` } }),
    );
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /No profile: profiling failed: &lt;img/);
  });

  test('a recovery carries no profile section, and an alert without a profile has none', () => {
    const recovery = renderAlert(regressionAlert({ kind: 'recovery', profile: takenProfile() }));
    assert.doesNotMatch(recovery.text, /differential profile/);
    assert.doesNotMatch(renderAlert(regressionAlert()).text, /differential profile|No profile/);
  });
});
