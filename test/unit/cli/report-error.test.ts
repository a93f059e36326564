import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { main, shownLines } from '../../../src/cli/main.js';

describe('what reportError prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpswatch-report-error-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function configCheck(yaml: string): Promise<{ code: number; stderr: string }> {
    const file = join(dir, 'qpswatch.yaml');
    writeFileSync(file, yaml, { mode: 0o600 });
    let stderr = '';
    const io = {
      env: {},
      cwd: dir,
      stdout: () => undefined,
      stderr: (t: string) => (stderr += t),
      stderrIsTTY: false,
      signal: new AbortController().signal,
    };
    return { code: await main(['config', 'check', file], io), stderr };
  }

  test('a bad remote with a token that holds quotes: named, its user part hidden', async () => {
    // A space makes the remote invalid; the password holds both kinds of quote and a backslash.
    const { code, stderr } = await configCheck(
      [
        'upstreams:',
        '  - name: mariadb',
        `    remote: 'https://bob:tok"SEC''RET\\x@github.com/Maria DB/server.git'`,
        '    flavor: mariadb',
        '    series: "10.11"',
        '    build_profile: mariadb-rel',
        '    server_profile: relaxed',
        '',
      ].join('\n'),
    );
    assert.equal(code, 2);
    assert.ok(!stderr.includes('SEC') && !stderr.includes('bob'), stderr);
    assert.match(
      stderr,
      /upstream "mariadb": remote = "https:\/\/\*\*\*@github\.com\/Maria DB\/server\.git": expected/,
    );
  });

  test('every line is escaped: control characters and escape sequences never reach the terminal', () => {
    assert.equal(
      shownLines('qpswatch: lock held by \u001b]0;owned\u0007 pid 1\nsecond https://u:p@h/x'),
      'qpswatch: lock held by \\x1b]0;owned\\x07 pid 1\nsecond https://***@h/x\n',
    );
  });
});
