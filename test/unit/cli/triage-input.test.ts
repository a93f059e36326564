import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkedBy, checkedReason, MAX_REASON_LENGTH } from '../../../src/cli/triage-commands.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import { runCli } from '../../helpers/cli.js';

describe('triage --by and --reason are checked before anything is stored', () => {
  const badBy: Array<[by: string, problem: RegExp]> = [
    ['', /^--by "" is empty: name who says so/],
    ['   ', /^--by "   " is empty/],
    ['ana\nbob', /^--by "ana\\nbob" holds a control character or a line break/],
    ['ana\u001b[2J', /holds a control character/],
    ['a'.repeat(101), /is longer than 100 characters/],
  ];
  for (const [by, problem] of badBy) {
    test(`--by ${JSON.stringify(by).slice(0, 30)}: a usage error`, () => {
      assert.throws(
        () => checkedBy(by, true),
        (err: unknown) => err instanceof UsageError && problem.test(err.message),
      );
    });
  }

  test('a bad user name from the environment says where it came from', () => {
    assert.throws(
      () => checkedBy('x\ny', false),
      (err: unknown) =>
        err instanceof UsageError &&
        /^the user name from \$SUDO_USER, \$USER or \$LOGNAME "x\\ny" holds/.test(err.message),
    );
  });

  const goodReasons = ['', 'MDEV-12345', 'first line\nsecond line', 'x'.repeat(MAX_REASON_LENGTH)];
  for (const reason of goodReasons)
    test(`--reason of ${reason.length} characters is kept as given`, () => assert.equal(checkedReason(reason), reason));

  const badReasons: Array<[reason: string, problem: RegExp]> = [
    [
      'x'.repeat(MAX_REASON_LENGTH + 1),
      /^--reason \(1001 characters\) is longer than 1000 characters: say why in short/,
    ],
    ['bell\u0007', /^--reason \(5 characters\) holds a control character/],
  ];
  for (const [reason, problem] of badReasons) {
    test(`--reason ${JSON.stringify(reason.slice(0, 12))}: a usage error`, () => {
      assert.throws(
        () => checkedReason(reason),
        (err: unknown) => err instanceof UsageError && problem.test(err.message),
      );
    });
  }
});

describe('the CLI exits 2 on a bad --by or --reason', () => {
  const dir = mkdtempSync('/tmp/qpsw-triage-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'q.yaml');
  writeFileSync(config, `state_dir: ${join(dir, 'state')}\n`);

  for (const [args, message] of [
    [['--by', 'ana\nbob'], /^qpswatch: --by "ana\\nbob" holds a control character/m],
    [['--reason', 'y'.repeat(5000)], /^qpswatch: --reason \(5000 characters\) is longer than 1000 characters/m],
  ] as const) {
    test(`accept ${args[0]}`, async () => {
      const result = await runCli(['--config', config, 'accept', 'mariadb-10.11.9', ...args], { timeoutMs: 60_000 });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.ok(!result.stderr.includes('y'.repeat(100)), 'the reason is not printed back');
    });
  }
});
