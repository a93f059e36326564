import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidAlertError, renderAlert } from '../../../src/notify/index.js';
import { judgedView, regressionAlert } from './sample-alert.js';
import { joined } from '../../helpers/pattern.js';

/** A view with four more tests, all regressed, at the given relative QPS. */
function manyRegressions(values: readonly number[]) {
  const view = judgedView();
  const template = view.tests[0]!;
  values.forEach((value, index) => view.tests.push({ ...template, test: `write-${index}`, relativeQps: value }));
  return view;
}

describe('renderAlert subject', () => {
  test('names flavor, version, the worst test with two decimals and the release compared with', () => {
    assert.equal(
      renderAlert(regressionAlert()).subject,
      'qpswatch: mariadb 10.11.10 regressed: point-query.t1 at 0.96 of 10.11.9',
    );
  });

  test('the worst is the lowest relative QPS among the event tests, and the others are counted', () => {
    const comparison = manyRegressions([0.9, 0.2412, 0.5]);
    const tests = ['point-query', 'write-0', 'write-1', 'write-2'].map((test) => ({ test, threads: 1 }));
    assert.equal(
      renderAlert(regressionAlert({ comparison, tests })).subject,
      'qpswatch: mariadb 10.11.10 regressed: write-1.t1 at 0.24 of 10.11.9 (+3 more)',
    );
  });

  test('tests of the session outside the event are not counted', () => {
    const comparison = manyRegressions([0.1]);
    assert.match(renderAlert(regressionAlert({ comparison })).subject, /point-query\.t1 at 0\.96 of 10\.11\.9$/);
  });

  test('a recovery names the recovered test with its new relative QPS', () => {
    const comparison = judgedView();
    comparison.tests[1]!.relativeQps = 0.9912;
    const alert = regressionAlert({ kind: 'recovery', comparison, tests: [{ test: 'update-index', threads: 1 }] });
    assert.equal(
      renderAlert(alert).subject,
      'qpswatch: mariadb 10.11.10 recovered: update-index.t1 at 0.99 of 10.11.9',
    );
  });

  test('control characters in data are stripped: the subject stays one line', () => {
    const alert = regressionAlert({
      flavor: 'maria\r\nBcc: victim@example.org',
      version: '10.11.10\u0000\u2028x',
      comparedWith: { tag: 't', version: '\t10.11.9\u0085' },
    });
    const { subject } = renderAlert(alert);
    assert.equal(
      subject,
      'qpswatch: mariaBcc: victim@example.org 10.11.10x regressed: point-query.t1 at 0.96 of 10.11.9',
    );
    assert.doesNotMatch(subject, /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
  });
});

describe('renderAlert body', () => {
  const message = renderAlert(regressionAlert());

  test('the text part is short: headline, lead, the tests that moved, what grew, where the full report is', () => {
    const { text } = message;
    assert.match(text, /^qpswatch: mariadb 10\.11\.10 regressed: .*\n=+\n\n1 regression, 1 ok\n/);
    assert.match(
      text,
      joined(
        /mariadb 10\.11\.10 \(tag mariadb-10\.11\.10\) of series /,
        /mariadb-10\.11 is slower than the last good release /,
        /10\.11\.9 \(tag mariadb-10\.11\.9\) in 1 test: /,
        /point-query\.t1 0\.96\./,
      ),
    );
    assert.match(
      text,
      /^Tests that moved\n-+\n\ntest +C\/B +interval +verdict\npoint-query\.t1 +0\.96 +0\.94-0\.97 +regression$/m,
    );
    assert.doesNotMatch(text, /^update-index\.t1 +1\.04/m, 'an ok test did not move');
    assert.match(text, /^point-query\.t1 +cpu\/o +0\.000312 +0\.000331 +x1\.06$/m);
    assert.match(text, /^point-query\.t1 +rKB\/o +0 +0\.0021 +from 0$/m);
    assert.match(text, /^host fingerprint: fp-3f2a9c$/m);
    assert.match(text, /qpswatch show \d+ --format html$/m);
    assert.match(
      text,
      /^dashboard: https:\/\/grafana\.example\.org\/d\/qpswatch\?var-series=mariadb-10\.11&var-version=10\.11\.10$/m,
    );
    assert.doesNotMatch(text, /^Per operation:|^C\/B by test/m, 'the whole report is not in the email');
    assert.ok(text.split('\n').length < 60, `${text.split('\n').length} lines`);
  });

  test('the html part has the same content as markup, the verdicts coloured, and the dashboard as a link', () => {
    const { html } = message;
    const has = (fragment: string, what: string) =>
      assert.ok(html.includes(fragment), `html part lacks ${what}: ${fragment}`);
    assert.ok(html.startsWith('<!DOCTYPE html>'));
    has('<title>qpswatch: mariadb 10.11.10 regressed: point-query.t1 at 0.96 of 10.11.9</title>', 'the title');
    has(
      '<a href="https://grafana.example.org/d/qpswatch?var-series=mariadb-10.11&amp;var-version=10.11.10">',
      'the dashboard link',
    );
    has('>1 regression</span>', 'the headline');
    has('>Tests that moved</h2>', 'the moved tests');
    has('background-color:#ffebe9;color:#a40e26">regression</td>', 'a coloured verdict');
    has('>What grew per operation</h2>', 'the hint heading');
    has('>x1.06</td>', 'the hint ratio');
    has('host fingerprint: fp-3f2a9c', 'the fingerprint');
    has('--format html', 'where the full report is');
    assert.equal(html.split('<thead>').length - 1, 2, 'the moved tests and the hint');
  });

  test('a moved test carries its interval; an unstable one stays in the full report', () => {
    const comparison = judgedView();
    comparison.tests[1]!.verdict = {
      ...comparison.tests[1]!.verdict!,
      kind: 'unstable',
      low: 0.9,
      high: 1.2,
      detectableDrop: 0.11,
      pairs: 6,
    };
    const { text } = renderAlert(regressionAlert({ comparison }));
    assert.match(text, /^1 regression, 1 unstable$/m);
    assert.match(text, /^point-query\.t1 +0\.96 +0\.94-0\.97 +regression$/m);
    assert.doesNotMatch(text, /^update-index\.t1 +1\.04/m);
  });

  test('a slower test is named after the lead with its interval and is one of the tests that moved', () => {
    const comparison = judgedView();
    comparison.tests[1]!.relativeQps = 0.9624;
    comparison.tests[1]!.verdict = {
      ...comparison.tests[1]!.verdict!,
      kind: 'slower',
      pSlower: 0.002,
      low: 0.9311,
      high: 0.9868,
      pairs: 70,
    };
    const { subject, text, html } = renderAlert(regressionAlert({ comparison }));
    assert.equal(
      subject,
      'qpswatch: mariadb 10.11.10 regressed: point-query.t1 at 0.96 of 10.11.9',
      'a slower test is not in the subject: no alert of its own',
    );
    const also =
      'Also significantly slower, but not shown past the threshold (no alert ' +
      'of their own): update-index.t1 0.962 (0.931-0.987).';
    assert.ok(text.includes(also) && html.includes(also), 'named after the lead');
    assert.match(text, /^update-index\.t1 +0\.96 +0\.93-0\.99 +slower$/m, 'its row, with the interval');
    assert.match(html, /background-color:#fff1e5;color:#953800">slower<\/td>/);
  });

  test('an email without a slower test has no such sentence', () => {
    assert.doesNotMatch(renderAlert(regressionAlert()).text, /Also significantly slower/);
  });

  test('a recovery has no hint section', () => {
    const alert = regressionAlert({ kind: 'recovery', tests: [{ test: 'update-index', threads: 1 }] });
    const { text } = renderAlert(alert);
    assert.match(
      text,
      joined(
        /is back to the speed of the last good release 10\.11\.9 /,
        /\(tag mariadb-10\.11\.9\) in 1 test that had regressed: /,
        /update-index\.t1 1\.04\./,
      ),
    );
    assert.doesNotMatch(text, /What grew per operation/);
  });

  test('a regression without a hint says that no per-op figure grew', () => {
    const comparison = judgedView();
    comparison.tests[0]!.verdict!.hint = [];
    assert.match(renderAlert(regressionAlert({ comparison })).text, /No per-op figure grew/);
  });

  test('without a dashboard there is no link', () => {
    const { text, html } = renderAlert(regressionAlert({ dashboardUrl: undefined }));
    assert.doesNotMatch(text, /dashboard:/);
    assert.ok(!html.includes('<a '));
  });

  test('a dashboard address that is not a web link is shown as text, never as an anchor', () => {
    const { html } = renderAlert(regressionAlert({ dashboardUrl: 'javascript:alert(1)' }));
    assert.ok(!html.includes('<a '));
    assert.ok(html.includes('dashboard: javascript:alert(1)</p>'));
  });
});

describe('renderAlert escaping', () => {
  const comparison = judgedView();
  comparison.tests[0]!.test = '<b>x</b>';
  comparison.candidate.name = 'rel"<i>';
  const alert = regressionAlert({
    tag: '<b>x</b>',
    comparison,
    tests: [{ test: '<b>x</b>', threads: 1 }],
    fingerprintId: 'fp&<script>',
  });
  const { subject, text, html } = renderAlert(alert);

  test('names are plain in the subject and the text part', () => {
    assert.match(subject, /regressed: <b>x<\/b>\.t1 at 0\.96/);
    assert.match(text, /\(tag <b>x<\/b>\)/);
    assert.match(text, /^<b>x<\/b>\.t1 +cpu\/o/m);
    assert.match(text, /host fingerprint: fp&<script>/);
  });

  test('names are escaped in the html part: no markup comes from data', () => {
    for (const markup of ['<b>', '<i>', '<script>']) assert.ok(!html.includes(markup), `html part holds ${markup}`);
    for (const escaped of ['(tag &lt;b&gt;x&lt;/b&gt;)', '>&lt;b&gt;x&lt;/b&gt;.t1<', 'fp&amp;&lt;script&gt;']) {
      assert.ok(html.includes(escaped), `html part lacks ${escaped}`);
    }
  });
});

describe('renderAlert refuses an alert that does not fit its session', () => {
  test('no tests', () => assert.throws(() => renderAlert(regressionAlert({ tests: [] })), InvalidAlertError));
  test('a test the session does not have', () => {
    assert.throws(
      () => renderAlert(regressionAlert({ tests: [{ test: 'point-query', threads: 64 }] })),
      /point-query with 64 threads is not in session 42/,
    );
  });
});

describe('renderAlert: the server variables and plans that differ', () => {
  const differences = Array.from({ length: 18 }, (_, i) => ({
    name: `var_${String(i).padStart(2, '0')}`,
    baseline: 'OFF',
    candidate: '<on>',
  }));
  const alert = (variables: { compared: number; differences: typeof differences }) =>
    regressionAlert({ comparison: { ...judgedView(), variables } });

  test('a regression lists them, both values, the markup of a value escaped in the html part', () => {
    const one = [{ name: 'innodb_adaptive_hash_index', baseline: 'OFF', candidate: 'ON' }];
    const { text, html } = renderAlert(alert({ compared: 640, differences: one }));
    assert.match(text, /^Server variables that differ\n-+\n\n1 of 640 differ /m);
    assert.match(text, /^innodb_adaptive_hash_index +OFF +ON$/m);
    assert.ok(html.includes('>innodb_adaptive_hash_index</td>'));
    const many = renderAlert(alert({ compared: 640, differences }));
    assert.ok(many.html.includes('>&lt;on&gt;</td>'), 'a value is data');
    assert.ok(!many.html.includes('<on>'));
  });

  test('past 15 rows the email says how many more and where the whole list is', () => {
    const { text } = renderAlert(alert({ compared: 640, differences }));
    assert.match(text, /^var_14 +OFF +<on>$/m);
    assert.doesNotMatch(text, /^var_15/m);
    assert.match(text, /^and 3 more: qpswatch show 42$/m);
  });

  test('a plan that differs follows them, with both plans', () => {
    const plans = {
      compared: 2,
      differences: [
        {
          test: 'point-query',
          statement: 'SELECT c FROM sbtest1 WHERE id=?',
          baseline: 'sbtest1 const PRIMARY',
          candidate: 'sbtest1 ALL + where',
        },
      ],
    };
    const { text } = renderAlert(regressionAlert({ comparison: { ...judgedView(), plans } }));
    assert.match(text, /^Plans that differ\n-+\n\n1 of 2 statements differ /m);
    assert.match(
      text,
      /^point-query +SELECT c FROM sbtest1 WHERE id=\? +sbtest1 const PRIMARY +sbtest1 ALL \+ where$/m,
    );
  });

  test('a recovery does not list them; nor does a session that kept none', () => {
    const recovery = renderAlert(
      regressionAlert({ kind: 'recovery', comparison: { ...judgedView(), variables: { compared: 640, differences } } }),
    );
    assert.doesNotMatch(recovery.text, /Server variables/);
    assert.doesNotMatch(renderAlert(regressionAlert()).text, /Server variables/);
  });
});
