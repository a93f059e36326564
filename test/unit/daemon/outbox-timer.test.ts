import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startOutboxTimer } from '../../../src/daemon/index.js';
import type { MailSettings } from '../../../src/notify/index.js';
import { defaultSqlitePath, openStore, type Store } from '../../../src/store/index.js';
import { queueOneMessage } from '../../helpers/outbox-store.js';
import { silentLog } from '../../helpers/silent-log.js';

let root = '';
let store: Store;
let mail: MailSettings;

before(async () => {
  root = await mkdtemp('/tmp/qpsw-obt-');
  await queueOneMessage(root, 'qpswatch: due in 2 s');
  store = await openStore({ backend: 'sqlite', path: defaultSqlitePath(root) });
  mail = {
    smtpHost: '',
    smtpPort: 25,
    smtpSecure: false,
    smtpUser: '',
    smtpPassword: '',
    smtpAllowPlaintextAuth: false,
    outboxDir: join(root, 'outbox'),
    timeoutMs: 5000,
  };
});

after(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

const sent = async (): Promise<number> =>
  (await readdir(mail.outboxDir).catch(() => [])).filter((f) => f.endsWith('.eml')).length;

test(
  'a message whose next attempt is 2 s away is sent by the timer about 2 ' +
    's later, not at the next cycle; stop is quick',
  async (t) => {
    const [message] = await store.listMessages('pending');
    const dueAt = Date.now() + 2000;
    await store.markMessageFailed(message!.id, 'connection refused', new Date(dueAt).toISOString());
    const controller = new AbortController();
    const timer = startOutboxTimer({ mail, store, log: silentLog, signal: controller.signal, maxSleepMs: 60_000 });
    try {
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(await sent(), 0, 'not before its time');
      while ((await sent()) === 0 && Date.now() < dueAt + 5000) await new Promise((r) => setTimeout(r, 50));
      const late = (Date.now() - dueAt) / 1000;
      t.diagnostic(`sent ${late.toFixed(2)} s after its next attempt`);
      assert.equal(await sent(), 1);
      assert.ok(late < 1.5, `sent ${late} s late`);
      assert.equal((await store.listMessages('sent')).length, 1);
      assert.equal(await store.nextMessageDue(), null);
    } finally {
      controller.abort();
      const stopping = Date.now();
      await timer.stop();
      assert.ok(Date.now() - stopping < 1000, 'stopped within a second');
    }
  },
);

test('poked many times, the timer sends nothing twice, and nothing after stop', async () => {
  const controller = new AbortController();
  const timer = startOutboxTimer({ mail, store, log: silentLog, signal: controller.signal, maxSleepMs: 20 });
  for (let i = 0; i < 20; i += 1) timer.poke();
  await new Promise((r) => setTimeout(r, 200));
  controller.abort();
  await timer.stop();
  timer.poke();
  assert.equal(await sent(), 1, 'nothing was sent twice');
});
