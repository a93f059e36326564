import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { metricNames, substituteVariables, TemplateVariableError } from '../../helpers/promql.js';

describe('metricNames', () => {
  const cases: Array<[string, string[]]> = [
    ['up{job="qpswatch"} == 0 or absent(up{job="qpswatch"})', ['up']],
    ['sum by (result) (increase(qpswatch_builds_total{instance=~".*"}[1h]))', ['qpswatch_builds_total']],
    ['count without (version) (qpswatch_qps) + max by(test)(qpswatch_qps)', ['qpswatch_qps']],
    [
      'time() - qpswatch_last_poll_timestamp_seconds > 2 * qpswatch_poll_interval_seconds',
      ['qpswatch_last_poll_timestamp_seconds', 'qpswatch_poll_interval_seconds'],
    ],
    ['rate(process_cpu_seconds_total[5m] offset 1h) > bool 1e3', ['process_cpu_seconds_total']],
    ['a / on (series, host) group_left (version) b', ['a', 'b']],
    ['label_replace(x{l="y"}, "dst", "$1", "src", "(.*)")', ['x']],
    ['{__name__="qpswatch_qps", test="read-only"}', ['qpswatch_qps']],
    [
      'max_over_time(qpswatch_qps[1h:5m]) unless ignoring(threads) qpswatch_relative_qps_ratio',
      ['qpswatch_qps', 'qpswatch_relative_qps_ratio'],
    ],
    ['0x1F + 2', []],
  ];
  for (const [expr, names] of cases) {
    test(expr, () => assert.deepEqual(metricNames(expr), names));
  }
});

describe('substituteVariables', () => {
  test('dashboard variables in regex matchers become .*, ${name} and ${name:format} too', () => {
    assert.equal(
      substituteVariables('m{series=~"$series", host=~"${host}", test=~"${test:regex}"}'),
      'm{series=~".*", host=~".*", test=~".*"}',
    );
  });

  test('a pinned variable takes the given regex', () => {
    assert.equal(
      substituteVariables('m{series=~"$series"}', { variables: { series: 'mariadb-10\\.11' } }),
      'm{series=~"mariadb-10\\.11"}',
    );
  });

  test('interval variables become durations, and can be changed', () => {
    assert.equal(
      substituteVariables('rate(m[$__rate_interval]) + increase(m[${__range}])'),
      'rate(m[2m]) + increase(m[1h])',
    );
    assert.equal(
      substituteVariables('rate(m[$__rate_interval])', { intervals: { __rate_interval: '20s' } }),
      'rate(m[20s])',
    );
  });

  test('a variable outside a regex matcher is an error naming it', () => {
    for (const expr of ['m{series="$series"}', 'm{series!~"$series"}', 'topk($n, m)']) {
      assert.throws(
        () => substituteVariables(expr),
        (err: unknown) => err instanceof TemplateVariableError && err.message.includes(expr),
      );
    }
  });
});
