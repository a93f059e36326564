import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TerminalOutput } from '../../../src/log/index.js';

const CLEAR = '\r\u001b[2K';

function terminal(): { out: TerminalOutput; written: string[] } {
  const written: string[] = [];
  const out = new TerminalOutput({ write: (t) => written.push(t), columns: () => 80, color: false, level: 'info' });
  return { out, written };
}

describe('TerminalOutput status line', () => {
  test('an event is printed above the status line, which is drawn again under it', () => {
    const { out, written } = terminal();
    out.setStatus('sweep 1/21');
    out.event('server up');
    assert.deepEqual(written, [`sweep 1/21`, `${CLEAR}server up\nsweep 1/21`]);
  });

  test('clearStatus erases the line that is shown, then writes nothing more', () => {
    const { out, written } = terminal();
    out.setStatus('sweep 9/21 · 5/8 decided');
    out.clearStatus();
    out.clearStatus();
    assert.deepEqual(written, [`sweep 9/21 · 5/8 decided`, CLEAR]);
  });

  test("setStatus('') after a status erases it", () => {
    const { out, written } = terminal();
    out.setStatus('build 25%');
    out.setStatus('');
    assert.equal(written.at(-1), CLEAR);
  });

  test('a progress line the status line shows is left out on a terminal, kept at debug', () => {
    const sweep = JSON.stringify({ level: 30, msg: 'sweep 2: 1 test(s) open', statusLine: true });
    const { out, written } = terminal();
    out.write(sweep);
    out.write(JSON.stringify({ level: 30, msg: 'look at 1 blocks' }));
    assert.deepEqual(written, ['look at 1 blocks\n']);
    const verbose: string[] = [];
    new TerminalOutput({ write: (t) => verbose.push(t), columns: () => 80, color: false, level: 'debug' }).write(sweep);
    assert.match(verbose.join(''), /^sweep 2: 1 test\(s\) open/);
  });
});
