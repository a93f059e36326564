// npm run bench:instructions -- [options]: how alike the instructions lane counts one server, run after run. One
// installed MariaDB, loaded once with a suite's data; each of its 1-thread tests counted --repeats times, each run
// from a fresh copy of the loaded datadir as the lane runs it (session/instruction-count.ts); then per test the
// instructions per query of every run, their median and their spread (max - min) / median.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { instructionSide } from '../src/analysis/index.js';
import { loadConfig } from '../src/config/index.js';
import { createLogger } from '../src/log/index.js';
import { instructionCounterSettings, type InstructionCounterSetting } from '../src/model/index.js';
import {
  countOnce,
  laneMinutes,
  loadTarget,
  planInstructionLane,
  prepareStateFolders,
  prepareTarget,
  TargetInstance,
} from '../src/session/index.js';
import { loadSuite } from '../src/suite/index.js';

const HELP = `Usage: npm run bench:instructions -- [--repeats N] [--suite NAME] [--tests A,B] [--profile NAME]
                                     [--events N] [--warmup-events N] [--counter auto|callgrind|perf] [--basedir DIR]

Counts one installed server (profile relaxed, /usr) --repeats times (default 10) on each 1-thread test of the suite
(default quick), each run from a fresh copy of the loaded datadir, as the instructions lane counts it, and prints per
test every run's instructions per query, their median and spread. Progress goes to stderr, the figures to stdout.
`;

/** A flag that is not one, or a value out of range: one line, exit code 2. */
class BenchUsageError extends Error {}

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new BenchUsageError(`--${flag} ${JSON.stringify(text)}: expected a whole number of at least ${min}`);
  return n;
}

function parseOptions(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        repeats: { type: 'string' },
        suite: { type: 'string' },
        tests: { type: 'string' },
        profile: { type: 'string' },
        events: { type: 'string' },
        'warmup-events': { type: 'string' },
        counter: { type: 'string' },
        basedir: { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (err) {
    throw new BenchUsageError(`${(err as Error).message}; see --help`);
  }
}

let values: ReturnType<typeof parseOptions>;
let counter: InstructionCounterSetting;
let repeats: number;
try {
  values = parseOptions(process.argv.slice(2));
  counter = (values.counter ?? 'auto') as InstructionCounterSetting;
  if (!instructionCounterSettings.includes(counter) || counter === 'off')
    throw new BenchUsageError(`--counter ${JSON.stringify(values.counter)}: expected auto, callgrind or perf`);
  repeats = whole('repeats', values.repeats, 10, 2);
} catch (err) {
  if (!(err instanceof BenchUsageError)) throw err;
  process.stderr.write(`bench:instructions: ${err.message}\n`);
  process.exit(2);
}
if (values.help === true) {
  process.stdout.write(HELP);
  process.exit(0);
}
const log = createLogger('warn', process.stderr.isTTY === true ? 'pretty' : 'json');
const say = (line: string): void => void process.stderr.write(`${line}\n`);
const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('stopped by SIGINT')));
const signal = controller.signal;

// Short: a unix socket path must fit in 107 bytes. 0711: the server account passes through, nobody lists it.
const dir = await mkdtemp(join(tmpdir(), 'qpsw-ilane-'));
await chmod(dir, 0o711);
let exitCode = 0;
try {
  const config = loadConfig({
    env: {},
    cwd: dir,
    overrides: {
      state_dir: dir,
      targets: {
        bench: {
          kind: 'installed',
          flavor: 'mariadb',
          basedir: values.basedir ?? '/usr',
          server_profile: values.profile ?? 'relaxed',
        },
      },
    },
  });
  const suite = loadSuite(values.suite ?? 'quick', config.suites_dir);
  const events = whole('events', values.events, config.instructions_events, 10);
  const warmupEvents = whole('warmup-events', values['warmup-events'], config.instructions_warmup_events, 0);
  const settings = {
    counter,
    repeats,
    events,
    warmupEvents,
    verdicts: { threshold: config.instructions_threshold, testThresholds: {} },
  };
  const plan = await planInstructionLane(suite, settings, { log, signal });
  if (plan.counter === undefined) throw new Error(`no counter: ${plan.reason}`);
  const wanted = values.tests?.split(',');
  const tests = plan.tests.filter((t) => wanted === undefined || wanted.includes(t.name));
  if (tests.length === 0) {
    throw new BenchUsageError(`no 1-thread test of ${suite.name} is named by --tests ${values.tests}`);
  }
  say(
    `${tests.length} tests x ${repeats} runs under ${plan.counter.kind} (${plan.counter.version}): about ` +
      `${Math.ceil(laneMinutes({ ...plan, tests }) / 2)} min on this project's 2-core VM, plus the load`,
  );
  const serverUser = config.server_user === '' ? undefined : config.server_user;
  await prepareStateFolders(dir, serverUser);
  const target = await prepareTarget('bench', config.targets['bench']!, config.server_profiles_dir, { log });
  const instance = new TargetInstance(
    target,
    join(dir, 'work', 'bench'),
    join(dir, 'run', 'b.sock'),
    undefined,
    serverUser,
    {
      readyMs: config.server_start_timeout_seconds * 1000,
      stopMs: config.server_stop_timeout_seconds * 1000,
    },
  );
  try {
    await loadTarget(instance, suite, { log, signal });
    const rows: string[] = [];
    for (const [index, test] of tests.entries()) {
      const perQuery: number[] = [];
      let seconds = 0;
      for (let repeat = 1; repeat <= repeats; repeat++) {
        const loads = loadavg()[0]!.toFixed(1);
        const result = await countOnce({
          instance,
          test,
          counter: plan.counter,
          events,
          warmupEvents,
          label: `${index + 1}-${repeat}`,
          signal,
          log,
        });
        perQuery.push(result.instructions / result.queries);
        seconds += result.seconds;
        say(
          `${test.name} ${repeat}/${repeats}: ${(result.instructions / result.queries).toFixed(1)} instructions ` +
            `per query (${result.seconds.toFixed(1)} s, load average ${loads})`,
        );
      }
      const side = instructionSide(perQuery);
      rows.push(
        `${test.name.padEnd(22)} median ${side.median.toFixed(1).padStart(10)}  spread ` +
          `${(100 * side.spread).toFixed(3).padStart(6)}%  min ${Math.min(...perQuery).toFixed(1)}  max ` +
          `${Math.max(...perQuery).toFixed(1)}  ${(seconds / repeats).toFixed(1)} s/run`,
      );
    }
    process.stdout.write(
      [
        `command: npm run bench:instructions -- ${process.argv.slice(2).join(' ')}`.trimEnd(),
        `server: ${target.ref.flavor} ${target.ref.version} (${target.binaries.mysqld}), ` +
          `profile ${target.profile.name}`,
        `counter: ${plan.counter.kind} (${plan.counter.version}); ${events} events after ${warmupEvents} of ` +
          `warm-up per run; ${repeats} runs per test, each from a fresh copy of the loaded datadir`,
        `suite: ${suite.name}; host load average now ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} (counts do not ` + 'depend on it; the seconds per run do)',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await instance.removeData();
  }
} catch (err) {
  exitCode = err instanceof BenchUsageError ? 2 : 1;
  say(`bench:instructions: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exitCode = exitCode;
