import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderAlert } from '../../../src/notify/index.js';
import { regressionAlert } from './sample-alert.js';
import { joined } from '../../helpers/pattern.js';

/**
 * The email of a regression found in a paired session directly against the series' base: a drift. Its subject
 * names flavor, version, the test and its relative QPS against the base; its body says it was against the base,
 * not the last good, and shows the chained series that raised it before the session's own tables.
 */
const chain = [
  {
    test: 'point-query',
    threads: 1,
    points: [
      { tag: 'mariadb-10.11.8', relativeQps: 0.981, low: 0.962, high: 1.0, steps: 1 },
      { tag: 'mariadb-10.11.9', relativeQps: 0.955, low: 0.93, high: 0.981, steps: 2 },
      { tag: 'mariadb-10.11.10', relativeQps: 0.93, low: 0.9, high: 0.961, steps: 3 },
    ],
  },
];
const drift = () =>
  regressionAlert({ against: 'base', comparedWith: { tag: 'mariadb-10.11.1', version: '10.11.1' }, chain });

describe('the drift email', () => {
  test('the subject says drifted, of base, with the test and its relative QPS against the base', () => {
    assert.equal(
      renderAlert(drift()).subject,
      'qpswatch: mariadb 10.11.10 drifted: point-query.t1 at 0.96 of base 10.11.1',
    );
  });

  test('the lead says a direct session against the base found it, never "the last good release"', () => {
    const { text } = renderAlert(drift());
    assert.match(
      text,
      joined(
        /has drifted: a paired session directly against the series' /,
        /base release 10\.11\.1 \(tag mariadb-10\.11\.1\) found it /,
        /slower in 1 test: point-query\.t1 0\.96\./,
      ),
    );
    assert.doesNotMatch(text, /last good/);
  });

  test('the chained series comes release by release, with its interval and checks, in both parts', () => {
    const { text, html } = renderAlert(drift());
    assert.match(text, /The chain that raised it/);
    assert.match(text, /^point-query\.t1 +mariadb-10\.11\.9 +0\.95[56]? +0\.93-0\.98 +2$/m);
    assert.ok(text.indexOf('mariadb-10.11.8 ') < text.indexOf('mariadb-10.11.10 '), 'oldest first');
    assert.match(html, /The chain that raised it/);
    assert.match(html, /mariadb-10\.11\.10/);
  });

  test('a check against the base without a chain (check --against-base) has no chain section', () => {
    const { text, subject } = renderAlert(
      regressionAlert({ against: 'base', comparedWith: { tag: 'mariadb-10.11.1', version: '10.11.1' } }),
    );
    assert.match(subject, /drifted: .* of base 10\.11\.1$/);
    assert.doesNotMatch(text, /The chain that raised it/);
  });

  test('a recovery against the base names the base, and an ordinary alert is unchanged', () => {
    const recovery = renderAlert(
      regressionAlert({
        kind: 'recovery',
        against: 'base',
        comparedWith: { tag: 'mariadb-10.11.1', version: '10.11.1' },
        tests: [{ test: 'update-index', threads: 1 }],
      }),
    );
    assert.match(recovery.subject, /recovered: update-index\.t1 at [\d.]+ of base 10\.11\.1$/);
    assert.match(recovery.text, /back to the speed of the series' base release 10\.11\.1/);
    assert.equal(
      renderAlert(regressionAlert()).subject,
      'qpswatch: mariadb 10.11.10 regressed: point-query.t1 at 0.96 of 10.11.9',
    );
  });
});
