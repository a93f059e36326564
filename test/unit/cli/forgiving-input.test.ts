import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { main } from '../../../src/cli/main.js';
import { checkCommandLine, COMMANDS } from '../../../src/cli/commands.js';
import { optionsAsText, OPTION_GROUPS, OPTIONS, unknownEnvironmentVariables } from '../../../src/config/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qpswatch-forgiving-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    env: { QPSWATCH_STATE_DIR: join(dir, 'state'), QPSWATCH_LOG_FORMAT: 'json', ...env },
    cwd: dir,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stderrIsTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/** Each mistake of issue 33: one line on stderr that names the fix, exit 2. */
const MISTAKES: ReadonlyArray<{ name: string; argv: string[]; line: RegExp }> = [
  {
    name: 'a misspelt flag gets the nearest one',
    argv: ['show', '1', '--fromat', 'md'],
    line: /^qpswatch: unknown option --fromat; did you mean --format\?$/,
  },
  {
    name: 'a long flag with one dash',
    argv: ['show', '1', '-format', 'md'],
    line: /^qpswatch: unknown option -format; did you mean --format\?$/,
  },
  {
    name: 'a negative number is the value, refused by its own range',
    argv: ['sessions', '--limit', '-3'],
    line: /^qpswatch: --limit "-3": expected a whole number from 1 to /,
  },
  {
    name: 'a misspelt command gets the nearest one',
    argv: ['sesions'],
    line: /^qpswatch: unknown command 'sesions'; did you mean 'sessions'\?$/,
  },
  {
    name: 'help of a command that does not exist',
    argv: ['help', 'comapre'],
    line: /^qpswatch: unknown command 'comapre'; did you mean 'compare'\?$/,
  },
  {
    name: 'a flag of no command lists the ones it takes',
    argv: ['sessions', '--zzz'],
    line: /^qpswatch: unknown option --zzz: this command takes --limit, --state, --json$/,
  },
  {
    name: 'a flag without its value',
    argv: ['show', '1', '--format'],
    line: /^qpswatch: --format needs a value \(`qpswatch help show` shows its usage\)$/,
  },
  {
    name: 'a value given to a switch',
    argv: ['status', '--json=yes'],
    line: /^qpswatch: --json is a switch and takes no value /,
  },
  {
    name: 'an argument a command does not take',
    argv: ['status', 'now'],
    line: /^qpswatch: unexpected argument "now": this command takes only options/,
  },
];

describe('forgiving input: every mistake is one line with its fix', () => {
  for (const mistake of MISTAKES) {
    test(mistake.name, async () => {
      const { code, stderr, stdout } = await run(mistake.argv);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      const lines = stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0]!, mistake.line);
    });
  }

  test('a misspelt QPSWATCH_ variable is a warning naming the option, never its value', () => {
    const warnings = unknownEnvironmentVariables({
      QPSWATCH_TRESHOLD: '0.9',
      QPSWATCH_STATE_DIR: '/x',
      QPSWATCH_SMTP_PASSWORD_FILE: '/y',
      QPSWATCH_CONFIG: '/z',
      QPSWATCH_ZZZZZZZZ: 'secret',
      HOME: '/root',
    });
    assert.deepEqual(warnings, [
      'QPSWATCH_TRESHOLD is no option and is ignored; did you mean QPSWATCH_THRESHOLD?',
      'QPSWATCH_ZZZZZZZZ is no option and is ignored: `qpswatch config options` lists them',
    ]);
  });

  test('the warning is printed when the config then fails to load: the misspelling may be why', async () => {
    const { code, stderr } = await run(['status'], {
      QPSWATCH_CONFG: join(dir, 'qpswatch.yaml'),
      QPSWATCH_CONFIG: join(dir, 'missing.yaml'),
    });
    assert.equal(code, 2);
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, stderr);
    assert.equal(
      lines[0],
      'qpswatch: warning: QPSWATCH_CONFG is no option and is ignored; did you mean QPSWATCH_CONFIG?',
    );
    assert.match(lines[1]!, /^qpswatch: config file .*missing\.yaml/);
    assert.doesNotMatch(stderr, /qpswatch\.yaml/, 'names only, never values');
  });

  test('config check reports every problem of a file in one run', async () => {
    const path = file(
      'many.yaml',
      [
        'suite: 5',
        'threshold: 3',
        'tresholds: 1',
        'targets:',
        '  x:',
        '    kind: installed',
        '    flavor: mariadb',
        '    basedir: /nonexistent',
        '    server_profile: relaxed',
        '',
      ].join('\n'),
    );
    const { code, stderr } = await run(['config', 'check', path]);
    assert.equal(code, 2);
    assert.match(stderr, /suite = 5: expected/);
    assert.match(stderr, /threshold = 3: expected/);
    assert.match(stderr, /unknown option 'tresholds': did you mean 'threshold'\?/);
    assert.match(stderr, /targets\.x: mariadb server not found/);
  });

  test('config check of the config the global flag names: every problem too', async () => {
    const path = file('bad-value.yaml', 'threshold: 3\ntargets:\n  x: 1\n');
    const { code, stderr } = await run(['-c', path, 'config', 'check']);
    assert.equal(code, 2);
    assert.match(stderr, /threshold = 3/);
    assert.match(stderr, /targets/);
  });

  for (const [name, yaml, line] of [
    ['one space too many on line 2', 'log_level: info\n suite: quick\n', 2],
    ['a key without its colon on line 2', 'log_level: info\nsuite quick\nthreshold: 0.9\n', 2],
    ['a tab on line 3', 'log_level: info\nsuite: quick\n\tthreshold: 0.9\n', 3],
  ] as const) {
    test(`a YAML error names the line to fix: ${name}`, async () => {
      const { code, stderr } = await run(['config', 'check', file('syntax.yaml', yaml)]);
      assert.equal(code, 2);
      const lines = stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0]!, new RegExp(`: line ${line}: not valid YAML \\(`));
    });
  }
});

describe('help', () => {
  test('qpswatch help CMD is the command help, with examples', async () => {
    const { code, stdout } = await run(['help', 'compare']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: qpswatch compare /);
    assert.match(stdout, /\nExamples:\n {2}The quickstart/);
    assert.equal((await run(['compare', '--help'])).stdout, stdout);
  });

  test('every command has examples, and each one parses', () => {
    for (const command of COMMANDS) {
      assert.ok(command.examples.length > 0, `${command.name} has no examples`);
      for (const example of command.examples) {
        assert.equal(checkCommandLine(example.line).name, command.name, example.line);
      }
    }
  });

  test('the short flags are the long ones', async () => {
    const long = await run(['sessions', '--limit', '-3']);
    const short = await run(['sessions', '-n', '-3']);
    assert.equal(short.stderr, long.stderr);
  });
});

describe('config options', () => {
  test('every option is in exactly one group', () => {
    const grouped = OPTION_GROUPS.flatMap((g) => g.names);
    assert.deepEqual([...grouped].sort(), Object.keys(OPTIONS).sort());
  });

  test('grouped, and wrapped at the width of the terminal', () => {
    for (const columns of [60, 80, 120]) {
      const text = optionsAsText(columns);
      for (const title of OPTION_GROUPS.map((g) => g.title))
        assert.ok(text.includes(`\n${title}\n`) || text.startsWith(title));
      const long = text.split('\n').filter((l) => l.length > columns && !/^ {6}\S+$/.test(l));
      assert.deepEqual(long, [], `lines over ${columns} characters`);
    }
  });
});
