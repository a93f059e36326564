import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deliverOutbox, retryDelaySeconds } from '../../../src/notify/index.js';
import { silentLog } from '../../helpers/silent-log.js';
import { FakeMailer, MemoryOutbox, message } from './fakes.js';

const log = silentLog;
const T0 = '2026-01-01T00:00:00.000Z';
const clock = (iso: string) => () => new Date(iso);

describe('retryDelaySeconds', () => {
  const cases: Array<[number, number]> = [
    [1, 30],
    [2, 60],
    [3, 120],
    [6, 960],
    [7, 1920],
    [8, 3600],
    [50, 3600],
    [10_000, 3600],
  ];
  for (const [attempts, seconds] of cases) {
    test(`after ${attempts} failed attempts: ${seconds} s`, () => assert.equal(retryDelaySeconds(attempts), seconds));
  }
  test('a count below one is taken as the first failure', () => assert.equal(retryDelaySeconds(0), 30));
});

describe('deliverOutbox', () => {
  test('sends what is due, oldest first, and marks each sent with the mailer detail', async () => {
    const port = new MemoryOutbox();
    port.add(message(1), T0);
    port.add(message(2), T0);
    port.add(message(3), '2026-01-01T00:10:00.000Z'); // not due yet
    const mailer = new FakeMailer();
    const result = await deliverOutbox(port, mailer, { now: clock('2026-01-01T00:05:00.000Z'), log });
    assert.deepEqual(result, { delivered: 2, failed: 0 });
    assert.deepEqual(
      mailer.sent.map((m) => m.id),
      [1, 2],
    );
    assert.equal(port.get(1).state, 'sent');
    assert.equal(port.get(1).detail, '250 ok 1');
    assert.equal(port.get(1).sentAt, '2026-01-01T00:05:00.000Z');
    assert.equal(port.get(3).state, 'pending');
    assert.equal(mailer.closed, 0, 'the caller owns the mailer');
  });

  test('one failure does not stop the others; it is kept as one line with the next attempt 30 s later', async () => {
    const port = new MemoryOutbox();
    [1, 2, 3].forEach((id) => port.add(message(id), T0));
    const refused = Object.assign(
      new Error('connect ECONNREFUSED 127.0.0.1:2525\n    at TCPConnectWrap.afterConnect'),
      { code: 'ECONNREFUSED' },
    );
    const mailer = new FakeMailer(new Map([[2, refused]]));
    const result = await deliverOutbox(port, mailer, { now: clock(T0), log });
    assert.deepEqual(result, { delivered: 2, failed: 1 });
    assert.deepEqual(port.calls, [`due ${T0} 20`, 'sent 1', 'failed 2', 'sent 3']);
    const failed = port.get(2);
    assert.equal(failed.state, 'pending');
    assert.equal(failed.attempts, 1);
    assert.equal(failed.lastError, 'connect ECONNREFUSED 127.0.0.1:2525');
    assert.equal(failed.nextAttemptAt, '2026-01-01T00:00:30.000Z');
  });

  test('the wait grows with the attempts already made', async () => {
    const port = new MemoryOutbox();
    port.add(message(7), T0);
    const mailer = new FakeMailer(new Map([[7, new Error('421 try later')]]));
    let now = Date.parse(T0);
    const nexts: string[] = [];
    for (let i = 0; i < 4; i++) {
      await deliverOutbox(port, mailer, { now: () => new Date(now), log });
      nexts.push(port.get(7).nextAttemptAt);
      now = Date.parse(port.get(7).nextAttemptAt);
    }
    assert.deepEqual(nexts, [
      '2026-01-01T00:00:30.000Z',
      '2026-01-01T00:01:30.000Z',
      '2026-01-01T00:03:30.000Z',
      '2026-01-01T00:07:30.000Z',
    ]);
    assert.equal(port.get(7).attempts, 4);
  });

  test('takes at most `limit` messages per call', async () => {
    const port = new MemoryOutbox();
    [1, 2, 3, 4].forEach((id) => port.add(message(id), T0));
    const mailer = new FakeMailer();
    assert.deepEqual(await deliverOutbox(port, mailer, { now: clock(T0), log, limit: 3 }), { delivered: 3, failed: 0 });
    assert.deepEqual(await deliverOutbox(port, mailer, { now: clock(T0), log, limit: 3 }), { delivered: 1, failed: 0 });
    assert.deepEqual(await deliverOutbox(port, mailer, { now: clock(T0), log, limit: 3 }), { delivered: 0, failed: 0 });
    assert.deepEqual(
      mailer.sent.map((m) => m.id),
      [1, 2, 3, 4],
    );
  });

  test('an error that is not an Error instance is still kept as one line', async () => {
    const port = new MemoryOutbox();
    port.add(message(1), T0);
    const mailer = new FakeMailer();
    mailer.send = async () => Promise.reject('socket\nhang up');
    await deliverOutbox(port, mailer, { now: clock(T0), log });
    assert.equal(port.get(1).lastError, 'socket');
  });

  test('a failing store is not taken for a failing mailer', async () => {
    const port = new MemoryOutbox();
    port.add(message(1), T0);
    port.markMessageSent = async () => Promise.reject(new Error('SQLITE_BUSY'));
    await assert.rejects(deliverOutbox(port, new FakeMailer(), { now: clock(T0), log }), /SQLITE_BUSY/);
    assert.equal(port.get(1).attempts, 0);
  });
});
