import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unreachableVerdicts } from '../../../src/cli/check-references.js';
import type { Config } from '../../../src/config/index.js';
import type { Suite, SuiteTest } from '../../../src/suite/index.js';

const config = {
  design: 'paired',
  rounds: 1,
  alpha: 0.01,
  max_pairs: 200,
  instance_seconds: 15,
  upstreams: [],
} as unknown as Config;
const test1 = (name: string, script: string): SuiteTest =>
  ({ name, seconds: 1, threads: [1], scriptPath: `/usr/share/sysbench/${script}.lua` }) as unknown as SuiteTest;
const suite = (...tests: SuiteTest[]): Suite => ({ name: 'mine', budgetMinutes: 8, tests }) as unknown as Suite;

test("config check and the daemon's start refuse a paired suite with a stock data-changing script, in one line", () => {
  const lines = unreachableVerdicts(config, suite(test1('reads', 'oltp_point_select'), test1('gone', 'oltp_delete')));
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^suite mine: test gone runs sysbench's stock oltp_delete, which shrinks .*delete-insert/);
  assert.deepEqual(unreachableVerdicts(config, suite(test1('reads', 'oltp_point_select'))), []);
  assert.deepEqual(
    unreachableVerdicts({ ...config, design: 'runs', rounds: 5 }, suite(test1('gone', 'oltp_delete'))),
    [],
    'the whole-run design copies the datadir afresh for each run',
  );
});
