import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CounterWrapError,
  observeHost,
  ProcParseError,
  SamplingIntervalError,
  judgeQuietHost,
  defaultQuietHostLimits,
} from '../../../src/sampling/index.js';
import { fixturePath } from '../../helpers/paths.js';

const fx = (name: string): string => fixturePath('sampling', name);
const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A fake /proc and /sys: the real "before" captures, and a governor per CPU. */
function fakeHost(governors: Array<string | undefined>): { procDir: string; sysDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'qpswatch-quiet-'));
  roots.push(root);
  const procDir = join(root, 'proc');
  const sysDir = join(root, 'sys');
  mkdirSync(procDir);
  copyFileSync(fx('interval-before-stat.txt'), join(procDir, 'stat'));
  writeFileSync(join(procDir, 'meminfo'), meminfo(6_000_000));
  writeFileSync(join(procDir, 'vmstat'), vmstat(100, 200));
  copyFileSync(fx('loadavg.txt'), join(procDir, 'loadavg'));
  governors.forEach((g, i) => {
    const cpu = join(sysDir, 'devices', 'system', 'cpu', `cpu${i}`);
    mkdirSync(join(cpu, 'topology'), { recursive: true });
    if (g === undefined) return; // an offline CPU, or no cpufreq driver
    mkdirSync(join(cpu, 'cpufreq'));
    writeFileSync(join(cpu, 'cpufreq', 'scaling_governor'), `${g}\n`);
  });
  const cpuidle = join(sysDir, 'devices', 'system', 'cpu', 'cpuidle');
  mkdirSync(cpuidle, { recursive: true });
  writeFileSync(join(cpuidle, 'current_driver'), 'haltpoll\n');
  writeFileSync(join(cpuidle, 'current_governor_ro'), 'haltpoll\n');
  return { procDir, sysDir };
}

function meminfo(availableKb: number): string {
  const lines = ['MemTotal:       24683656 kB', 'MemFree:        1000 kB', `MemAvailable:   ${availableKb} kB`];
  return `${lines.join('\n')}\nHugePages_Total:       0\n`;
}

function vmstat(pswpin: number, pswpout: number): string {
  return `nr_free_pages 5000\npswpin ${pswpin}\npswpout ${pswpout}\npgfault 12\n`;
}

describe('observeHost on a fake /proc and /sys', () => {
  test('the files change during the window: busy, swap rate, lower memory, both governors', async () => {
    const { procDir, sysDir } = fakeHost(['performance', 'performance']);
    const second = (async () => {
      await sleep(50);
      copyFileSync(fx('interval-after-stat.txt'), join(procDir, 'stat'));
      writeFileSync(join(procDir, 'meminfo'), meminfo(1_048_576));
      writeFileSync(join(procDir, 'vmstat'), vmstat(100 + 40, 200 + 20));
      writeFileSync(join(procDir, 'loadavg'), '0.75 0.50 0.25 1/99 4242\n');
      writeFileSync(join(sysDir, 'devices/system/cpu/cpu1/cpufreq/scaling_governor'), 'powersave\n');
    })();
    const obs = await observeHost(0.3, { procDir, sysDir });
    await second;
    assert.ok(obs.windowSeconds >= 0.3 && obs.windowSeconds < 1, `window ${obs.windowSeconds}`);
    // interval captures: busy = user 4 + system 20 + steal 2 = 26 of 211 jiffies
    assert.ok(Math.abs(obs.busyPercent - (26 / 211) * 100) < 1e-9, `busy ${obs.busyPercent}`);
    assert.equal(obs.availableBytes, 1024 ** 3);
    assert.ok(Math.abs(obs.swapPagesPerSecond - 60 / obs.windowSeconds) < 1e-9);
    assert.deepEqual(obs.governors, ['performance', 'powersave']);
    assert.equal(obs.loadAverage1, 0.75);
    assert.deepEqual(
      [obs.cpuidleDriver, obs.cpuidleGovernor],
      ['haltpoll', 'haltpoll'],
      'the cpuidle driver and governor are reported',
    );

    const verdict = judgeQuietHost(obs, { ...defaultQuietHostLimits(), governors: ['performance'] });
    assert.equal(verdict.quiet, false);
    assert.equal(verdict.reasons.length, 4, verdict.reasons.join('\n'));
    assert.match(verdict.reasons[0] ?? '', /^CPU busy 12\.3% over 0\.3 s, limit 10%/);
  });

  test('a host without cpufreq reports "none"', async () => {
    const { procDir, sysDir } = fakeHost([undefined, undefined]);
    setTimeout(() => copyFileSync(fx('interval-after-stat.txt'), join(procDir, 'stat')), 20);
    const obs = await observeHost(0.1, { procDir, sysDir });
    assert.deepEqual(obs.governors, ['none']);
    assert.equal(obs.swapPagesPerSecond, 0);
  });

  test('no CPU time passing in the window is an interval error, not 0% busy', async () => {
    const { procDir, sysDir } = fakeHost(['performance']);
    await assert.rejects(observeHost(0.05, { procDir, sysDir }), SamplingIntervalError);
  });

  test('a swap counter going backwards is a wrap error', async () => {
    const { procDir, sysDir } = fakeHost(['performance']);
    setTimeout(() => {
      copyFileSync(fx('interval-after-stat.txt'), join(procDir, 'stat'));
      writeFileSync(join(procDir, 'vmstat'), vmstat(0, 0));
    }, 20);
    await assert.rejects(observeHost(0.1, { procDir, sysDir }), CounterWrapError);
  });

  test('a damaged file is refused with its path', async () => {
    const { procDir, sysDir } = fakeHost(['performance']);
    copyFileSync(fx('meminfo-truncated.txt'), join(procDir, 'meminfo'));
    await assert.rejects(
      observeHost(0.05, { procDir, sysDir }),
      (err: unknown) => err instanceof ProcParseError && err.file === join(procDir, 'meminfo') && err.lineNumber === 3,
    );
  });

  test('refuses a window that is not a positive number', async () => {
    for (const w of [0, -1, Number.NaN, Infinity]) {
      await assert.rejects(observeHost(w), /observation window must be a number of seconds > 0/);
    }
  });

  test('an abort ends the wait at once', async () => {
    const { procDir, sysDir } = fakeHost(['performance']);
    const ac = new AbortController();
    const start = Date.now();
    setTimeout(() => ac.abort(), 30);
    await assert.rejects(observeHost(30, { procDir, sysDir, signal: ac.signal }), { name: 'AbortError' });
    assert.ok(Date.now() - start < 2000);
    await assert.rejects(observeHost(1, { procDir, sysDir, signal: ac.signal }), { name: 'AbortError' });
  });
});

describe('observeHost on this machine', () => {
  test('0.2 s of the real /proc and /sys gives plausible figures', async () => {
    const obs = await observeHost(0.2);
    const memTotal = Number(/^MemTotal:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]) * 1024;
    assert.ok(obs.windowSeconds >= 0.2 && obs.windowSeconds < 2, `window ${obs.windowSeconds}`);
    assert.ok(obs.busyPercent >= 0 && obs.busyPercent <= 100, `busy ${obs.busyPercent}`);
    assert.ok(obs.availableBytes > 0 && obs.availableBytes <= memTotal, `available ${obs.availableBytes}`);
    assert.ok(obs.swapPagesPerSecond >= 0 && Number.isFinite(obs.swapPagesPerSecond));
    assert.ok(obs.governors.length >= 1 && obs.governors.every((g) => /^[\w-]+$/.test(g)), obs.governors.join());
    assert.deepEqual(obs.governors, [...obs.governors].sort());
    assert.ok(obs.loadAverage1 >= 0);
    const verdict = judgeQuietHost(obs, defaultQuietHostLimits());
    assert.equal(verdict.quiet, verdict.reasons.length === 0);
    console.log(JSON.stringify({ observation: obs, verdict: verdict.reasons }));
  });
});
