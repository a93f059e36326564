import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeEmptySelection, parseUpstream, selectReleases, type RemoteTag } from '../../../src/upstream/index.js';
import { readTagList } from './git-fixture.js';
import { silentLog } from '../../helpers/silent-log.js';
import { joined } from '../../helpers/pattern.js';

/** Each tag gets its own fake commit, so a test can check that the commit travels with its tag. */
function remoteTags(names: readonly string[]): RemoteTag[] {
  return names.map((tag, i) => ({ tag, commit: i.toString(16).padStart(40, '0') }));
}

const MARIADB = remoteTags(readTagList('mariadb-tags.txt'));
const MYSQL = remoteTags(readTagList('mysql-tags.txt'));
const PERCONA = remoteTags(readTagList('percona-tags.txt'));

function upstream(fields: Record<string, unknown>) {
  return parseUpstream({
    name: 'u',
    remote: 'https://github.com/MariaDB/server.git',
    flavor: 'mariadb',
    series: '10.11',
    build_profile: 'mariadb-rel',
    server_profile: 'relaxed',
    ...fields,
  });
}

function tags(fields: Record<string, unknown>, from: readonly RemoteTag[]): string[] {
  return selectReleases(upstream(fields), from, silentLog).map((r) => r.tag);
}

describe('selectReleases', () => {
  test('a series keeps its releases in version order: 10.11.9 before 10.11.10, no 10.11.0 preview', () => {
    assert.deepEqual(tags({}, MARIADB), [
      'mariadb-10.11.1',
      'mariadb-10.11.2',
      'mariadb-10.11.3',
      'mariadb-10.11.4',
      'mariadb-10.11.5',
      'mariadb-10.11.6',
      'mariadb-10.11.7',
      'mariadb-10.11.8',
      'mariadb-10.11.9',
      'mariadb-10.11.10',
    ]);
  });

  test('each release keeps the commit of its own tag', () => {
    const [first] = selectReleases(upstream({}), MARIADB, silentLog);
    assert.deepEqual(first?.commit, MARIADB.find((t) => t.tag === 'mariadb-10.11.1')?.commit);
    assert.equal(first?.version.text, '10.11.1');
  });

  test('min_version drops older releases of the series', () => {
    assert.deepEqual(tags({ min_version: '10.11.6' }, MARIADB), [
      'mariadb-10.11.6',
      'mariadb-10.11.7',
      'mariadb-10.11.8',
      'mariadb-10.11.9',
      'mariadb-10.11.10',
    ]);
  });

  test('a range series: >=8.0.30 <8.1', () => {
    assert.deepEqual(tags({ flavor: 'mysql', series: '>=8.0.30 <8.1' }, MYSQL), [
      'mysql-8.0.30',
      'mysql-8.0.33',
      'mysql-8.0.34',
      'mysql-8.0.35',
      'mysql-8.0.36',
      'mysql-8.0.37',
      'mysql-8.0.38',
      'mysql-8.0.39',
      'mysql-8.0.40',
    ]);
  });

  test('Percona builds order as numbers within one patch: 5.7.44-48 before 5.7.44-53', () => {
    assert.deepEqual(tags({ flavor: 'percona', series: '5.7' }, PERCONA), [
      'Percona-Server-5.7.10-3',
      'Percona-Server-5.7.43-47',
      'Percona-Server-5.7.44-48',
      'Percona-Server-5.7.44-53',
    ]);
  });

  test('exclude globs: ? is one character, * any run', () => {
    assert.deepEqual(tags({ flavor: 'percona', series: '8.0', exclude: ['Percona-Server-8.0.2?-*'] }, PERCONA), [
      'Percona-Server-8.0.13-3',
      'Percona-Server-8.0.15-5',
      'Percona-Server-8.0.17-8',
      'Percona-Server-8.0.34-26',
      'Percona-Server-8.0.35-27',
      'Percona-Server-8.0.36-28',
      'Percona-Server-8.0.37-29',
      'Percona-Server-8.0.39-30',
    ]);
  });

  test('include globs: a release must match one of them', () => {
    assert.deepEqual(tags({ series: '>=10.6 <11', include: ['mariadb-10.6.?', 'mariadb-10.11.?'] }, MARIADB), [
      'mariadb-10.6.1',
      'mariadb-10.6.2',
      'mariadb-10.6.3',
      'mariadb-10.6.9',
      'mariadb-10.11.1',
      'mariadb-10.11.2',
      'mariadb-10.11.3',
      'mariadb-10.11.4',
      'mariadb-10.11.5',
      'mariadb-10.11.6',
      'mariadb-10.11.7',
      'mariadb-10.11.8',
      'mariadb-10.11.9',
    ]);
  });

  test('include and exclude together; exclude wins', () => {
    assert.deepEqual(tags({ include: ['mariadb-10.11.*'], exclude: ['*.1?', 'mariadb-10.11.[1]'] }, MARIADB), [
      'mariadb-10.11.1',
      'mariadb-10.11.2',
      'mariadb-10.11.3',
      'mariadb-10.11.4',
      'mariadb-10.11.5',
      'mariadb-10.11.6',
      'mariadb-10.11.7',
      'mariadb-10.11.8',
      'mariadb-10.11.9',
    ]);
  });

  test('glob characters other than * and ? are literal: "." matches only a dot', () => {
    const odd = remoteTags(['mariadb-10.11.9', 'mariadb-10x11.9']);
    assert.deepEqual(tags({ series: '>=0', include: ['mariadb-10.11.9'] }, odd), ['mariadb-10.11.9']);
  });

  test('the order is by version whatever the input order, equal versions by tag text', () => {
    const shuffled = remoteTags([
      'Percona-Server-8.0.36-28',
      'Percona-Server-8.0.36-27',
      'Percona-Server-8.0.4-1',
      'Percona-Server-8.0.36-3',
      'Percona-Server-5.6.51-91.0',
      'Percona-Server-5.6.51-91',
      'Percona-Server-8.0.36-100',
    ]);
    assert.deepEqual(tags({ flavor: 'percona', series: '>=0' }, shuffled), [
      'Percona-Server-5.6.51-91',
      'Percona-Server-5.6.51-91.0',
      'Percona-Server-8.0.4-1',
      'Percona-Server-8.0.36-3',
      'Percona-Server-8.0.36-27',
      'Percona-Server-8.0.36-28',
      'Percona-Server-8.0.36-100',
    ]);
  });

  test('no tags at all selects nothing', () => {
    assert.deepEqual(tags({}, []), []);
  });
});

describe('describeEmptySelection', () => {
  test('a series that matches nothing: names the upstream, the series and the newest release tag seen', () => {
    const u = upstream({ name: 'mariadb-12', series: '12.0' });
    assert.deepEqual(selectReleases(u, MARIADB, silentLog), []);
    const line = describeEmptySelection(u, MARIADB);
    assert.equal(
      line,
      `upstream "mariadb-12" (mariadb, series "12.0") selects no release from https://github.com/MariaDB/server.git: ` +
        (`the newest release tag among its ${MARIADB.length} tags is ` +
          `mariadb-11.4.4 (11.4.4); check series, include, exclude and ` +
          `min_version`),
    );
  });

  test('the wrong flavor for the remote: no release tag at all, with an example tag', () => {
    const u = upstream({ name: 'ps', flavor: 'percona', series: '8.0' });
    assert.deepEqual(selectReleases(u, MARIADB, silentLog), []);
    const line = describeEmptySelection(u, MARIADB);
    assert.match(
      line,
      joined(
        /^upstream "ps" \(percona, series "8\.0"\) selects no release /,
        /from \S+: none of its \d+ tags is a percona release tag /,
        /\(Percona-Server-X\.Y\.Z-N\), e\.g\. "mariadb-11\.4\.4"; /,
        /check the flavor and the remote$/,
      ),
    );
  });

  test('a remote without tags', () => {
    assert.match(describeEmptySelection(upstream({}), []), /: the remote has no tags; check the remote$/);
  });

  test('always one line', () => {
    for (const line of [describeEmptySelection(upstream({}), MARIADB), describeEmptySelection(upstream({}), [])]) {
      assert.doesNotMatch(line, /\n/);
    }
  });
});
