import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { loadSuite, runArgv, runSysbench, SuiteError, SysbenchRunError } from '../../src/suite/index.js';
import { projectRoot } from '../helpers/paths.js';

const SUITES_DIR = join(projectRoot, 'config', 'suites');
const dir = mkdtempSync('/tmp/qpsw-suite-err-');
after(() => rmSync(dir, { recursive: true, force: true }));

describe('real sysbench against no server', () => {
  test('fails with a SysbenchRunError quoting sysbench FATAL line', async () => {
    const socket = join(dir, 'nobody-listens.sock');
    const point = loadSuite('quick', SUITES_DIR).tests.find((t) => t.name === 'point-query');
    assert.ok(point !== undefined, 'the quick suite has a point-query test');
    const argv = runArgv(point, 1, { socket, user: 'root' }, 1);
    await assert.rejects(runSysbench(argv, { timeoutMs: 30_000 }), (err: unknown) => {
      assert.ok(err instanceof SysbenchRunError, String(err));
      assert.equal(err.exitCode, 1);
      assert.equal(err.signal, null);
      const cause = `FATAL: error 2002: Can't connect to local server through socket '${socket}' (2)`;
      assert.ok(err.tail.includes(cause), `tail: ${JSON.stringify(err.tail)}`);
      assert.ok(err.message.includes(cause), err.message);
      assert.ok(err.message.startsWith(`sysbench run of ${point.scriptPath} exited with code 1: `), err.message);
      return true;
    });
  });
});

describe('a suite file naming a script that does not exist', () => {
  const cases = [
    {
      name: 'a test script',
      field: 'tests[1].script',
      load: '',
      warmup: 'oltp_read_only',
      test: 'no_such_script',
      says: 'looked for no_such_script.lua in ',
    },
    {
      name: 'the warm-up script',
      field: 'warmup.script',
      load: '',
      warmup: 'oltp_read_onyl',
      test: 'oltp_point_select',
      says: 'looked for oltp_read_onyl.lua in ',
    },
    {
      name: 'the load script',
      field: 'load.script',
      load: 'script: oltp_commmon',
      warmup: 'oltp_read_only',
      test: 'oltp_point_select',
      says: 'looked for oltp_commmon.lua in ',
    },
    {
      name: 'a path beside the suite',
      field: 'tests[1].script',
      load: '',
      warmup: 'oltp_read_only',
      test: './lua/mine.lua',
      says: `no file ${join(dir, 'lua', 'mine.lua')}`,
    },
  ];
  cases.forEach((c, i) => {
    test(`${c.name}: fails at load, naming the file and ${c.field}`, () => {
      const file = join(dir, `bad-${i}.yaml`);
      writeFileSync(file, suiteYaml(c.load, c.warmup, c.test));
      assert.throws(
        () => loadSuite(file, SUITES_DIR),
        (err: unknown) => {
          assert.ok(err instanceof SuiteError, String(err));
          assert.ok(err instanceof InputError, 'the CLI answers it with exit code 2');
          assert.equal(err.file, file);
          assert.equal(err.field, c.field);
          assert.ok(err.message.startsWith(`${file}: ${c.field} = "`), err.message);
          assert.ok(err.message.includes(c.says), err.message);
          assert.match(err.message, /script not found/);
          return true;
        },
      );
    });
  });
});

function suiteYaml(load: string, warmup: string, second: string): string {
  return [
    'name: bad',
    'description: a suite with a script that is not there',
    'load:',
    '  tables: 1',
    '  table_size: 100',
    ...(load !== '' ? [`  ${load}`] : []),
    'warmup:',
    `  script: ${warmup}`,
    '  seconds: 1',
    '  threads: 1',
    'defaults: { seconds: 1, threads: [1] }',
    'tests:',
    '  - name: first',
    '    script: oltp_point_select',
    '  - name: second',
    `    script: ${second}`,
    '',
  ].join('\n');
}
