import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { HistoryView } from '../../../src/model/index.js';
import { renderHistory } from '../../../src/report/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { changedFacts, hostChanges } from '../../../src/views/host-changes.js';
import { joined } from '../../helpers/pattern.js';
import { hostInput, sessionInput } from '../store/store-inputs.js';

const dir = mkdtempSync(join(tmpdir(), 'qpsw-host-changes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let stores = 0;

const fingerprint = (kernel: string, compiler: string) => ({
  cpuModel: 'AMD EPYC 7B13',
  cores: 4,
  kernel,
  compiler,
  inventory: { os: { kernel } },
});

/** A host and one session on it run by `runner` (none: a session from before fleets named theirs). */
async function sessionOn(store: Store, id: string, print: object, runner?: string): Promise<[number, number]> {
  const hostId = await store.upsertHost(hostInput({ fingerprintId: id, fingerprint: print }));
  const settings = runner === undefined ? {} : { runner };
  return [hostId, await store.createSession(sessionInput(hostId, { settings }))];
}

describe('hostChanges', () => {
  test("the machine's fingerprints in the order first seen, each change with the facts that changed", async () => {
    const store = await openStore({ backend: 'sqlite', path: join(dir, `s${++stores}.sqlite`) });
    try {
      const old = await sessionOn(store, 'fp-old', fingerprint('6.1.0-18-amd64', 'gcc 12.2.0'), 'db1');
      const other = await sessionOn(store, 'fp-other', fingerprint('6.1.0-21-amd64', 'gcc 12.2.0'), 'db2');
      const unnamed = await sessionOn(store, 'fp-unnamed', fingerprint('5.10', 'gcc 10'));
      const now = await sessionOn(store, 'fp-new', fingerprint('6.1.0-21-amd64', 'gcc 12.3.0'), 'db1');
      const newest = new Map([old, other, unnamed, now]);
      const changes = await hostChanges(store, newest, now[0]);
      assert.deepEqual(
        changes.map(({ at, ...c }) => (assert.match(at, /^\d{4}-/), c)),
        [
          {
            runner: 'db1',
            from: 'fp-old',
            to: 'fp-new',
            changed: [
              { fact: 'compiler', from: 'gcc 12.2.0', to: 'gcc 12.3.0' },
              { fact: 'kernel', from: '6.1.0-18-amd64', to: '6.1.0-21-amd64' },
            ],
          },
        ],
      );
      assert.deepEqual(await hostChanges(store, newest, other[0]), [], 'db2 has one fingerprint');
      assert.deepEqual(await hostChanges(store, newest, old[0]), [], 'the first fingerprint has no change before it');
      assert.deepEqual(await hostChanges(store, newest, unnamed[0]), [], 'no runner: no claim');
    } finally {
      await store.close();
    }
  });

  test('a fact one fingerprint lacks reads as none; the inventory never counts', () => {
    assert.deepEqual(changedFacts({ kernel: 'a', inventory: 1 }, { kernel: 'a', testMark: 'x', inventory: 2 }), [
      { fact: 'testMark', from: 'none', to: 'x' },
    ]);
  });
});

describe('the history report with a host change', () => {
  const view: HistoryView = {
    series: 'mariadb-10.11',
    flavor: 'mariadb',
    baseIndex: 0,
    versions: [{ version: '10.11.2', label: 'mariadb-10.11.2', imported: false }],
    tests: [{ test: 'point-query', threads: 1, figures: [null] }],
    host: 'fp-new',
    generatedAt: '2026-12-07T00:00:00.000Z',
    hostChanges: [
      {
        runner: 'db1',
        at: '2026-12-01T10:00:00.000Z',
        from: 'fp-old',
        to: 'fp-new',
        changed: [{ fact: 'kernel', from: '6.1.0-18-amd64', to: '6.1.0-21-amd64<b>' }],
      },
    ],
  };

  test('text names the change, what changed and where the results before it are', () => {
    assert.match(
      renderHistory(view, 'text'),
      joined(
        /^host changed on db1, 2026-12-01: fp-old -> fp-new \(kernel 6\.1\.0-18-amd64 -> 6\.1\.0-21-amd64<b>\); /,
        /results before it: qpswatch report --host fp-old$/m,
      ),
    );
  });

  test('html escapes the facts; json carries the change', () => {
    assert.match(renderHistory(view, 'html'), /6\.1\.0-21-amd64&lt;b&gt;/);
    const json = JSON.parse(renderHistory(view, 'json')) as { hostChanges: unknown };
    assert.deepEqual(json.hostChanges, view.hostChanges);
  });
});
