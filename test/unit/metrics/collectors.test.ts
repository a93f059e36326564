import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cyclePhases } from '../../../src/model/index.js';
import { createMetricsExposition, RELEASE_FAMILIES } from '../../../src/metrics/index.js';
import { FakeSource, figureRow, health, MarkedSource, qpswatchFamilies } from './fake-source.js';

const LABELS =
  'host="fp-4c-16g-nvme",flavor="mariadb",series="mariadb-10.11",version="10.11.9",version_key="010.011.009",' +
  'test="update-index",threads="1",profile="small-server"';

const EXPECTED = `# HELP qpswatch_build_info 1, labelled with qpswatch's version and the Node.js version it runs on.
# TYPE qpswatch_build_info gauge
qpswatch_build_info{version="1.2.3",node_version="${process.version}"} 1

# HELP qpswatch_qps Median QPS (sysbench queries per second) of the version for the test.
# TYPE qpswatch_qps gauge
qpswatch_qps{${LABELS}} 1234.5

# HELP qpswatch_relative_qps_ratio QPS relative to the series' base release: chained through the paired checks where \
they lead to the base, else the ratio of medians (0/0 = 1).
# TYPE qpswatch_relative_qps_ratio gauge
qpswatch_relative_qps_ratio{${LABELS}} 0.97

# HELP qpswatch_relative_qps_low_ratio Lower end of the interval of the chained relative QPS against the base; absent \
for a ratio of medians.
# TYPE qpswatch_relative_qps_low_ratio gauge
qpswatch_relative_qps_low_ratio{${LABELS}} 0.94

# HELP qpswatch_relative_qps_high_ratio Upper end of the interval of the chained relative QPS against the base; absent \
for a ratio of medians.
# TYPE qpswatch_relative_qps_high_ratio gauge
qpswatch_relative_qps_high_ratio{${LABELS}} 1.01

# HELP qpswatch_relative_to_last_good_ratio Relative QPS of the version's newest valid check, against the last good \
release of that time.
# TYPE qpswatch_relative_to_last_good_ratio gauge
qpswatch_relative_to_last_good_ratio{${LABELS}} 0.99

# HELP qpswatch_detectable_drop_ratio Smallest drop (0.05 = 5%) the version's newest valid check could detect for the \
test, 4 times in 5 at its alpha.
# TYPE qpswatch_detectable_drop_ratio gauge
qpswatch_detectable_drop_ratio{${LABELS}} 0.045

# HELP qpswatch_regression_open Whether a regression event that started with this version is open for the test (1) or \
not (0).
# TYPE qpswatch_regression_open gauge
qpswatch_regression_open{${LABELS}} 0

# HELP qpswatch_cpu_seconds_per_op Host CPU seconds per operation (median).
# TYPE qpswatch_cpu_seconds_per_op gauge
qpswatch_cpu_seconds_per_op{${LABELS}} 0.00025

# HELP qpswatch_context_switches_per_op Host context switches per operation (median).
# TYPE qpswatch_context_switches_per_op gauge
qpswatch_context_switches_per_op{${LABELS}} 2.5

# HELP qpswatch_read_ops_per_op Reads from the data device per operation (median).
# TYPE qpswatch_read_ops_per_op gauge
qpswatch_read_ops_per_op{${LABELS}} 0

# HELP qpswatch_read_bytes_per_op Bytes read from the data device per operation (median).
# TYPE qpswatch_read_bytes_per_op gauge
qpswatch_read_bytes_per_op{${LABELS}} 0

# HELP qpswatch_written_bytes_per_op Bytes written to the data device per operation (median).
# TYPE qpswatch_written_bytes_per_op gauge
qpswatch_written_bytes_per_op{${LABELS}} 3072

# HELP qpswatch_off_cpu_seconds_per_op Off-CPU seconds per operation (median): client threads / QPS minus the \
server process CPU seconds per op.
# TYPE qpswatch_off_cpu_seconds_per_op gauge
qpswatch_off_cpu_seconds_per_op{${LABELS}} 0.0008

# HELP qpswatch_latency_p95_seconds Median of sysbench's 95th percentile latency, in seconds.
# TYPE qpswatch_latency_p95_seconds gauge
qpswatch_latency_p95_seconds{${LABELS}} 0.00691

# HELP qpswatch_instructions_per_query Instructions per query executed in the server connection thread (median of \
the repeats, callgrind or perf stat), for the 1-thread tests the instructions lane counted.
# TYPE qpswatch_instructions_per_query gauge
qpswatch_instructions_per_query{${LABELS}} 101230

# HELP qpswatch_instructions_relative_to_base_ratio Instructions per query relative to the series' base release \
counted under the same conditions, directly (not chained): over 1 is more work per query; 1 for the base.
# TYPE qpswatch_instructions_relative_to_base_ratio gauge
qpswatch_instructions_relative_to_base_ratio{${LABELS}} 1.031

# HELP qpswatch_instructions_relative_to_last_good_ratio Instructions per query C/B of the version's newest valid \
check, against the last good release of that time: over 1 is more work per query.
# TYPE qpswatch_instructions_relative_to_last_good_ratio gauge
qpswatch_instructions_relative_to_last_good_ratio{${LABELS}} 1.004

# HELP qpswatch_verdict_info 1, labelled with the verdict (kind: ok, regression, improvement, slower or unstable) of \
the version's newest valid check for the test. A version with a slower or unstable test and no regression is \
inconclusive: not last good.
# TYPE qpswatch_verdict_info gauge
qpswatch_verdict_info{${LABELS},kind="ok"} 1

# HELP qpswatch_regression_threshold_ratio Relative QPS under which a test's drop is a regression (threshold, or the \
test's entry in test_thresholds).
# TYPE qpswatch_regression_threshold_ratio gauge
qpswatch_regression_threshold_ratio{series="mariadb-10.11",test="update-index"} 0.95

# HELP qpswatch_phase 1 for the daemon's current phase, 0 for the others.
# TYPE qpswatch_phase gauge
qpswatch_phase{phase="idle"} 0
qpswatch_phase{phase="discovering"} 0
qpswatch_phase{phase="building"} 0
qpswatch_phase{phase="waiting_for_quiet_host"} 0
qpswatch_phase{phase="benchmarking"} 1
qpswatch_phase{phase="notifying"} 0

# HELP qpswatch_queue_releases Releases in the daemon queue, by state.
# TYPE qpswatch_queue_releases gauge
qpswatch_queue_releases{state="discovered"} 2
qpswatch_queue_releases{state="building"} 0
qpswatch_queue_releases{state="built"} 0
qpswatch_queue_releases{state="benchmarking"} 1
qpswatch_queue_releases{state="done"} 7
qpswatch_queue_releases{state="failed"} 1

# HELP qpswatch_queue_retries_pending Releases whose build or session failed and that wait for another attempt \
(retry_attempts), by step.
# TYPE qpswatch_queue_retries_pending gauge
qpswatch_queue_retries_pending{step="build"} 0
qpswatch_queue_retries_pending{step="session"} 1

# HELP qpswatch_releases_discovered_total Releases ever discovered, all upstreams.
# TYPE qpswatch_releases_discovered_total counter
qpswatch_releases_discovered_total 11

# HELP qpswatch_builds_total Builds that ended, by result.
# TYPE qpswatch_builds_total counter
qpswatch_builds_total{result="built"} 8
qpswatch_builds_total{result="failed"} 1

# HELP qpswatch_build_failures_total Builds that failed.
# TYPE qpswatch_build_failures_total counter
qpswatch_build_failures_total 1

# HELP qpswatch_last_build_duration_seconds The newest finished build's duration in seconds; 0 before the first.
# TYPE qpswatch_last_build_duration_seconds gauge
qpswatch_last_build_duration_seconds 1520.5

# HELP qpswatch_last_session_duration_seconds The newest done session's duration in seconds; 0 before the first.
# TYPE qpswatch_last_session_duration_seconds gauge
qpswatch_last_session_duration_seconds 3300

# HELP qpswatch_last_poll_timestamp_seconds Unix time of the last finished discovery; 0 before the first.
# TYPE qpswatch_last_poll_timestamp_seconds gauge
qpswatch_last_poll_timestamp_seconds 1750000000

# HELP qpswatch_poll_interval_seconds The schedule's interval between polls, in seconds.
# TYPE qpswatch_poll_interval_seconds gauge
qpswatch_poll_interval_seconds 3600

# HELP qpswatch_active_regressions Open regression events per series.
# TYPE qpswatch_active_regressions gauge
qpswatch_active_regressions{series="mariadb-10.11"} 1

# HELP qpswatch_quiet_host_wait_seconds How long the current session has waited for a quiet host; 0 when not waiting.
# TYPE qpswatch_quiet_host_wait_seconds gauge
qpswatch_quiet_host_wait_seconds 0

# HELP qpswatch_build_progress_ratio The running build: the share of its compile step done (ninja [n/m], make \
percent), 0..1; 0 when none runs.
# TYPE qpswatch_build_progress_ratio gauge
qpswatch_build_progress_ratio 0

# HELP qpswatch_build_eta_seconds Seconds until the running build is expected to end, labelled with its release; no \
sample when none runs or its end is unknown.
# TYPE qpswatch_build_eta_seconds gauge

# HELP qpswatch_session_progress_ratio The running session: the share of its budget (paired) or of its planned test \
seconds (whole runs) spent, then of its instructions lane runs done, 0..1; 0 when none runs.
# TYPE qpswatch_session_progress_ratio gauge
qpswatch_session_progress_ratio 0

# HELP qpswatch_session_eta_seconds Seconds until the running session is expected to end, labelled with its release; \
no sample when none runs or its end is unknown.
# TYPE qpswatch_session_eta_seconds gauge

# HELP qpswatch_cache_bytes Bytes on disk of ccache, the git mirrors and the installs (builds), measured in the \
background at most every few minutes; no sample before the first measure.
# TYPE qpswatch_cache_bytes gauge`;

/** The samples of one family, as exposition lines. */
function samplesOf(text: string, family: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${family}{`) || line.startsWith(`${family} `));
}

describe('metrics collectors', () => {
  test('a small case is exposed exactly, every qpswatch family in contract order', async () => {
    const source = new FakeSource();
    source.rows = [figureRow({ perOp: { offCpuMicrosPerOp: 0.0008 } })];
    const registry = createMetricsExposition(source);
    assert.equal(qpswatchFamilies(await registry.metrics()), EXPECTED);
  });

  test('prom-client process metrics are on the registry too', async () => {
    const text = await createMetricsExposition(new FakeSource()).metrics();
    assert.match(text, /^process_resident_memory_bytes \d+$/m);
    assert.match(text, /^# TYPE process_cpu_seconds_total counter$/m);
  });

  test(
    'a row measured under a memory setting has a memory label after the ' + 'others; a row without one has none',
    async () => {
      const source = new FakeSource();
      source.rows = [figureRow({}), figureRow({ qps: 99 }, { memory: 'io-bound' })];
      const text = await createMetricsExposition(source).metrics();
      assert.deepEqual(samplesOf(text, 'qpswatch_qps'), [
        `qpswatch_qps{${LABELS}} 1234.5`,
        `qpswatch_qps{${LABELS},memory="io-bound"} 99`,
      ]);
      assert.equal(
        samplesOf(text, 'qpswatch_verdict_info').filter((l) => l.includes('memory="io-bound",kind="ok"')).length,
        1,
      );
    },
  );

  test('hostile label values (quote, newline, backslash) are escaped, never break a line', async () => {
    const source = new FakeSource();
    source.rows = [figureRow({}, { test: 'say "hi"\nqpswatch_qps{} 1e9', version: 'C:\\x' })];
    source.state = health({ activeRegressions: [{ series: 'odd"series\n', count: 2 }] });
    const text = await createMetricsExposition(source).metrics();
    const [line] = samplesOf(text, 'qpswatch_qps');
    assert.equal(
      line,
      'qpswatch_qps{host="fp-4c-16g-nvme",flavor="mariadb",series="mariadb-10.11",version="C:\\\\x",' +
        'version_key="010.011.009",test="say \\"hi\\"\\nqpswatch_qps{} 1e9",threads="1",profile="small-server"} 1234.5',
    );
    assert.deepEqual(samplesOf(text, 'qpswatch_active_regressions'), [
      'qpswatch_active_regressions{series="odd\\"series\\n"} 2',
    ]);
    // The injected text stays inside its label: one qpswatch_qps sample, no line of its own.
    assert.equal(text.split('\n').filter((l) => l.startsWith('qpswatch_qps')).length, 1);
  });

  test('values are exported as given in base units; absent figures and infinite ratios leave no sample', async () => {
    const source = new FakeSource();
    source.rows = [
      figureRow({
        relativeToLastGood: null,
        detectableDrop: null,
        verdict: null,
        latencyP95Seconds: null,
        perOp: { cpuPerOp: null },
      }),
      figureRow(
        { relativeQps: Number.POSITIVE_INFINITY, verdict: 'slower', perOp: { writeKBPerOp: 1.5 * 1024 } },
        { version: '10.11.10', version_key: '010.011.010' },
      ),
    ];
    const text = await createMetricsExposition(source).metrics();
    assert.deepEqual(
      samplesOf(text, 'qpswatch_verdict_info').map((l) => /kind="(\w+)"\} 1$/.exec(l)?.[1]),
      ['slower'],
      'a never-checked version has no verdict sample',
    );
    assert.equal(samplesOf(text, 'qpswatch_relative_to_last_good_ratio').length, 1);
    assert.deepEqual(
      samplesOf(text, 'qpswatch_detectable_drop_ratio').map((l) => l.split(' ').at(-1)),
      ['0.045'],
      'a check without it (old verdicts, never checked) leaves no sample',
    );
    assert.equal(samplesOf(text, 'qpswatch_latency_p95_seconds').length, 1);
    assert.equal(samplesOf(text, 'qpswatch_cpu_seconds_per_op').length, 1);
    assert.deepEqual(
      samplesOf(text, 'qpswatch_relative_qps_ratio').map((l) => l.split(' ').at(-1)),
      ['0.97'],
    );
    assert.deepEqual(
      samplesOf(text, 'qpswatch_written_bytes_per_op').map((l) => l.split(' ').at(-1)),
      ['3072', '1536'],
    );
    assert.equal(samplesOf(text, 'qpswatch_qps').length, 2);
  });

  test('the instructions families: a sample only where the lane counted, a ratio where it has one', async () => {
    const cases: Array<[string, Parameters<typeof figureRow>[0], string[]]> = [
      // name, the row's lane figures, the samples of per_query, relative_to_base, relative_to_last_good
      ['counted and checked', {}, ['101230', '1.031', '1.004']],
      ['the base itself', { instructionsRelativeToBase: 1, instructionsRelativeToLastGood: null }, ['101230', '1']],
      [
        'counted, no base of the same conditions, never checked',
        { instructionsRelativeToBase: null, instructionsRelativeToLastGood: null },
        ['101230'],
      ],
      [
        'not counted (a test at 8 threads, or no lane)',
        { instructionsPerQuery: null, instructionsRelativeToBase: null, instructionsRelativeToLastGood: null },
        [],
      ],
    ];
    for (const [name, lane, values] of cases) {
      const source = new FakeSource();
      source.rows = [figureRow(lane)];
      const text = await createMetricsExposition(source).metrics();
      const families = [
        'qpswatch_instructions_per_query',
        'qpswatch_instructions_relative_to_base_ratio',
        'qpswatch_instructions_relative_to_last_good_ratio',
      ];
      assert.deepEqual(
        families.flatMap((f) => samplesOf(text, f).map((l) => l.split(' ').at(-1))),
        values,
        name,
      );
      for (const f of families) assert.match(text, new RegExp(`^# TYPE ${f} gauge$`, 'm'), `${name}: ${f}`);
    }
  });

  test(
    'the threshold is one sample per series and test, each test its own ' +
      '(test_thresholds), whatever the versions, hosts and threads',
    async () => {
      const source = new FakeSource();
      source.rows = [
        figureRow(),
        figureRow({}, { version: '10.11.10', version_key: '010.011.010', threads: '8' }),
        figureRow({}, { host: 'fp-other' }),
        figureRow({ threshold: 0.9 }, { test: 'read-only' }),
        figureRow({}, { series: 'mysql-8.0', flavor: 'mysql' }),
      ];
      const registry = createMetricsExposition(source);
      assert.deepEqual(samplesOf(await registry.metrics(), 'qpswatch_regression_threshold_ratio'), [
        'qpswatch_regression_threshold_ratio{series="mariadb-10.11",test="update-index"} 0.95',
        'qpswatch_regression_threshold_ratio{series="mariadb-10.11",test="read-only"} 0.9',
        'qpswatch_regression_threshold_ratio{series="mysql-8.0",test="update-index"} 0.95',
      ]);
      // A series whose versions are all pruned leaves no threshold behind.
      source.rows = [figureRow({ threshold: 0.93 })];
      assert.deepEqual(samplesOf(await registry.metrics(), 'qpswatch_regression_threshold_ratio'), [
        'qpswatch_regression_threshold_ratio{series="mariadb-10.11",test="update-index"} 0.93',
      ]);
    },
  );

  test('build info is 1 with the version given and the Node.js version, also before any figure', async () => {
    const source = new FakeSource();
    source.rows = [];
    source.build = { version: '0.9.0-rc.1' };
    const text = await createMetricsExposition(source).metrics();
    assert.deepEqual(samplesOf(text, 'qpswatch_build_info'), [
      `qpswatch_build_info{version="0.9.0-rc.1",node_version="${process.version}"} 1`,
    ]);
    assert.deepEqual(samplesOf(text, 'qpswatch_regression_threshold_ratio'), []);
  });

  test('one scrape reads the source once per part, and each scrape reads again', async () => {
    const source = new FakeSource();
    const registry = createMetricsExposition(source);
    await registry.metrics();
    assert.deepEqual(source.reads, { releaseFigures: 1, health: 1 });
    await registry.metrics();
    assert.deepEqual(source.reads, { releaseFigures: 2, health: 2 });
  });

  test(
    'a version that is pruned, a series whose regressions closed and a new ' + 'phase show at the next scrape',
    async () => {
      const source = new FakeSource();
      source.rows = [figureRow(), figureRow({}, { version: '10.11.10', version_key: '010.011.010' })];
      const registry = createMetricsExposition(source);
      assert.equal(samplesOf(await registry.metrics(), 'qpswatch_qps').length, 2);
      source.rows = [figureRow({}, { version: '10.11.10', version_key: '010.011.010' })];
      source.state = health({ phase: 'idle', activeRegressions: [{ series: 'mariadb-10.11', count: 0 }] });
      const text = await registry.metrics();
      assert.deepEqual(
        samplesOf(text, 'qpswatch_qps').map((l) => /version="([^"]+)"/.exec(l)?.[1]),
        ['10.11.10'],
      );
      assert.deepEqual(samplesOf(text, 'qpswatch_active_regressions'), [
        'qpswatch_active_regressions{series="mariadb-10.11"} 0',
      ]);
      assert.deepEqual(
        samplesOf(text, 'qpswatch_phase').filter((l) => l.endsWith(' 1')),
        ['qpswatch_phase{phase="idle"} 1'],
      );
    },
  );

  test('every phase is always exported, exactly one of them 1; unknown queue states and nulls read 0', async () => {
    const source = new FakeSource();
    source.state = health({
      phase: 'waiting_for_quiet_host',
      queue: {},
      lastPollSeconds: null,
      lastBuildDurationSeconds: null,
      lastSessionDurationSeconds: null,
      quietHostWaitSeconds: 42,
    });
    const text = await createMetricsExposition(source).metrics();
    const phases = samplesOf(text, 'qpswatch_phase');
    assert.equal(phases.length, cyclePhases.length);
    assert.deepEqual(
      phases.filter((l) => l.endsWith(' 1')),
      ['qpswatch_phase{phase="waiting_for_quiet_host"} 1'],
    );
    assert.ok(samplesOf(text, 'qpswatch_queue_releases').every((l) => l.endsWith(' 0')));
    assert.deepEqual(samplesOf(text, 'qpswatch_last_poll_timestamp_seconds'), [
      'qpswatch_last_poll_timestamp_seconds 0',
    ]);
    assert.deepEqual(samplesOf(text, 'qpswatch_last_build_duration_seconds'), [
      'qpswatch_last_build_duration_seconds 0',
    ]);
    assert.deepEqual(samplesOf(text, 'qpswatch_quiet_host_wait_seconds'), ['qpswatch_quiet_host_wait_seconds 42']);
  });

  test(
    'a failing source fails the scrape (the server answers 500) instead of ' + 'serving stale or empty figures',
    async () => {
      const source = new FakeSource();
      source.failure = new Error('database is locked');
      await assert.rejects(createMetricsExposition(source).metrics(), /database is locked/);
    },
  );

  test(
    'with a change mark, the per-release text is read again only when the ' + 'mark moves; health on every scrape',
    async () => {
      const source = new MarkedSource();
      const exposition = createMetricsExposition(source);
      const first = await exposition.metrics();
      source.rows = [figureRow({ qps: 999 })];
      const same = await exposition.metrics();
      assert.deepEqual(source.reads, { releaseFigures: 1, health: 2 });
      assert.deepEqual(samplesOf(same, 'qpswatch_qps'), samplesOf(first, 'qpswatch_qps'));
      source.mark += 1;
      assert.deepEqual(
        samplesOf(await exposition.metrics(), 'qpswatch_qps').map((l) => l.split(' ').at(-1)),
        ['999'],
      );
      assert.deepEqual(source.reads, { releaseFigures: 2, health: 3 });
    },
  );

  test('with a change mark, a failed read is not kept: the next scrape reads again', async () => {
    const source = new MarkedSource();
    const exposition = createMetricsExposition(source);
    source.failure = new Error('database is locked');
    await assert.rejects(exposition.metrics(), /database is locked/);
    source.failure = undefined;
    assert.equal(samplesOf(await exposition.metrics(), 'qpswatch_qps').length, 1);
    assert.equal(source.reads.releaseFigures, 2);
  });

  test(
    'with a change mark, renders never overlap: a scrape during a render ' +
      'waits for it, then renders if the mark moved',
    async () => {
      let inFlight = 0;
      let most = 0;
      const source = new (class extends MarkedSource {
        override async releaseFigures() {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 20));
          inFlight -= 1;
          return super.releaseFigures();
        }
      })();
      const exposition = createMetricsExposition(source);
      const first = exposition.metrics();
      await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(inFlight, 1, 'the first render is under way');
      source.mark += 1;
      const second = exposition.metrics();
      await Promise.all([first, second]);
      assert.equal(most, 1);
      assert.equal(source.reads.releaseFigures, 2, 'the second scrape rendered again: the mark had moved');
      await exposition.metrics();
      assert.equal(source.reads.releaseFigures, 2, 'the mark did not move since: kept');
    },
  );

  test(
    'the exposition reads like one registry: families separated by one ' + 'empty line, one newline at the end',
    async () => {
      const text = await createMetricsExposition(new MarkedSource()).metrics();
      assert.doesNotMatch(text, /\n\n\n/);
      assert.match(text, /[^\n]\n$/);
      assert.match(text, /\n\n# HELP qpswatch_qps /);
      assert.match(text, /\n\n# HELP qpswatch_phase /);
    },
  );

  test('two registries in one process keep their own series (never the global registry)', async () => {
    const a = new FakeSource();
    const b = new FakeSource();
    b.rows = [];
    const [ta, tb] = [await createMetricsExposition(a).metrics(), await createMetricsExposition(b).metrics()];
    assert.equal(samplesOf(ta, 'qpswatch_qps').length, 1);
    assert.equal(samplesOf(tb, 'qpswatch_qps').length, 0);
    assert.deepEqual(
      RELEASE_FAMILIES.map((f) => f.name).filter((n) => !tb.includes(`# TYPE ${n} gauge`)),
      [],
    );
  });
});
