import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { loadSuite, SuiteError } from '../../../src/suite/index.js';

/**
 * A config or suite path may name any file (the env file with the SMTP password, /etc/passwd): what is wrong is
 * said with the file and the line, and no line of the file is printed back.
 */
const dir = mkdtempSync(join(tmpdir(), 'qpsw-foreign-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'hunter2-3c4d';
const files: Array<[what: string, text: string, problem: RegExp]> = [
  [
    'an env file',
    `# secrets\nQPSWATCH_SMTP_PASSWORD=${SECRET}\nQPSWATCH_X=1\n`,
    /: line 2: .*found text of \d+ character\(s\)$/,
  ],
  [
    'a passwd file',
    `root:x:0:0:root:/root:/bin/bash\nqpsw:x:1000:1000:${SECRET}:/home/q:/bin/sh\n`,
    /: line 1: .*found text of \d+ character\(s\)$/,
  ],
  // yaml sees an unclosed quote where the file ends
  ['broken YAML', `a: 1\nkey: "${SECRET}\n`, /: line 3: not valid YAML \(Missing closing "quote\)$/],
  ['broken YAML on the secret line', `a: 1\n${SECRET}: [1\n`, /: line \d: not valid YAML \(Flow sequence/],
  ['a list', `- ${SECRET}\n- two\n`, /: line 1: .*found a list of 2 item\(s\)$/],
];

function messageOf(fn: () => unknown, type: new (...args: never[]) => Error): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof type, String(err));
    return err instanceof ConfigError ? err.problems.join('\n') : err.message;
  }
  assert.fail('expected an error');
}

describe('config check of a file that is not a config', () => {
  for (const [what, text, problem] of files) {
    test(what, () => {
      const file = join(dir, `${what.replace(/\W/g, '-')}.conf`);
      writeFileSync(file, text);
      const message = messageOf(() => loadConfig({ file, env: {}, cwd: '/' }), ConfigError);
      assert.match(message, problem);
      assert.ok(message.startsWith(`config file ${file}: line `), message);
      assert.ok(!message.includes(SECRET), message);
      assert.ok(!message.includes('root:x'), message);
    });
  }

  test('a key that is no option name is not quoted back', () => {
    const file = join(dir, 'keys.yaml');
    writeFileSync(file, `password=${SECRET} x: 1\nstat_dir: /x\n`);
    const message = messageOf(() => loadConfig({ file, env: {}, cwd: '/' }), ConfigError);
    assert.ok(!message.includes(SECRET), message);
    assert.match(message, /a key that is not an option name \(\d+ characters\)/);
    assert.match(
      message,
      /unknown option 'stat_dir': did you mean 'state_dir'\?/,
      'an option-like key is still named, with a guess',
    );
  });
});

describe('a suite path that names a file that is not a suite', () => {
  for (const [what, text, problem] of files) {
    test(what, () => {
      const file = join(dir, `${what.replace(/\W/g, '-')}.yaml`);
      writeFileSync(file, text);
      const message = messageOf(() => loadSuite(file, dir), SuiteError);
      assert.match(message, problem);
      assert.ok(message.startsWith(`${file}: line `), message);
      assert.ok(!message.includes(SECRET), message);
      assert.ok(!message.includes('root:x'), message);
    });
  }
});
