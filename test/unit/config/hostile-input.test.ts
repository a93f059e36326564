import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConfigError, findConfigFile, loadConfig } from '../../../src/config/index.js';
import { loadSuite, SuiteError } from '../../../src/suite/index.js';

/** The low findings of issue 32 that come in through a config or suite: each is one line, never a stack. */
const dir = mkdtempSync(join(tmpdir(), 'qpsw-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function problems(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.problems;
  }
  assert.fail('expected a ConfigError');
}

const BOMB =
  'a: &a ["x","x","x","x","x","x","x","x","x"]\n' +
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n' +
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n';

test('a YAML alias bomb in a config or a suite is one line, not a stack', () => {
  const file = join(dir, 'bomb.yaml');
  writeFileSync(file, BOMB);
  const [line, ...rest] = problems(() => loadConfig({ file, env: {}, cwd: '/' }));
  assert.deepEqual(rest, []);
  assert.match(line!, /^config file .*bomb\.yaml: line 1: not valid YAML \(Excessive alias count/);
  assert.throws(
    () => loadSuite(file, dir),
    (err: unknown) => err instanceof SuiteError && /not valid YAML \(Excessive alias count/.test(err.message),
  );
});

test('a binary config is one line that quotes none of it, its token included', () => {
  const file = join(dir, 'binary.yaml');
  writeFileSync(file, Buffer.concat([Buffer.from('smtp_password: tok-9f8e\n'), Buffer.from([0, 1, 2, 0xff, 0xfe])]));
  const all = problems(() => loadConfig({ file, env: {}, cwd: '/' }));
  assert.equal(all.length, 1);
  assert.equal(
    all[0],
    `config file ${file} is not UTF-8 text: a NUL byte at byte 24 (line 2): name a text file, or save it as UTF-8`,
  );
});

test('a NUL byte in state_dir (or any path) is one line naming the option', () => {
  assert.deepEqual(
    problems(() => loadConfig({ env: { QPSWATCH_STATE_DIR: '/var/lib/q\0x' }, cwd: '/' })),
    [
      'state_dir = "/var/lib/q\\u0000x" holds a NUL byte, which no path may hold: fix state_dir ' +
        '(QPSWATCH_STATE_DIR or the config file)',
    ],
  );
});

test('QPSWATCH_CONFIG set but empty says so, instead of "config file  cannot be read"', () => {
  assert.deepEqual(
    problems(() => findConfigFile(undefined, { QPSWATCH_CONFIG: '' })),
    [
      'QPSWATCH_CONFIG is set but empty: set it to a config file, or unset it (unset QPSWATCH_CONFIG) to run on the ' +
        'defaults or /etc/qpswatch/qpswatch.yaml',
    ],
  );
});

test('grafana_url with a user, password or token is refused: it is put into every email', () => {
  for (const url of ['https://admin:pw@grafana.example.org', 'https://grafana.example.org/?token=abc']) {
    const [line] = problems(() => loadConfig({ env: { QPSWATCH_GRAFANA_URL: url }, cwd: '/' }));
    assert.match(line!, /^environment QPSWATCH_GRAFANA_URL = .*: expected an http\(s\) URL with no user, password/);
    assert.ok(!line!.includes('pw@') && !line!.includes('abc'), line);
  }
  assert.equal(
    loadConfig({ env: { QPSWATCH_GRAFANA_URL: 'https://g.example.org/d' }, cwd: '/' }).grafana_url,
    'https://g.example.org/d',
  );
});

test('an index URL with ?token= in a config every user may read is refused like a user part', () => {
  const file = join(dir, 'index-token.yaml');
  writeFileSync(
    file,
    'upstreams:\n  - name: mysql\n    kind: tarball\n    flavor: mysql\n    series: "8.0"\n' +
      '    index: "https://downloads.example.org/list?token=s3cr3t"\n    server_profile: relaxed\n',
    { mode: 0o644 },
  );
  const all = problems(() => loadConfig({ file, env: {}, cwd: '/' }));
  assert.ok(
    all.some((l) => /index = .*token=\*\*\*.* holds credentials, and the file is readable by every user/.test(l)),
    all.join('\n'),
  );
  assert.ok(!all.join('\n').includes('s3cr3t'));
});
