import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReleaseTag, selectReleases, parseUpstream, type Upstream } from '../../../src/upstream/index.js';
import { FLAVORS, type Flavor } from '../../../src/version/index.js';
import { readTagList } from './git-fixture.js';
import { silentLog } from '../../helpers/silent-log.js';

const COMMIT = 'a'.repeat(40);

/** An upstream with no filter worth the name: every release tag of the flavor is selected. */
function everything(flavor: Flavor): Upstream {
  return parseUpstream({
    name: `all-${flavor}`,
    remote: '/srv/git/x',
    flavor,
    series: '>=0',
    build_profile: 'demo',
    server_profile: 'relaxed',
  });
}

function selectedTags(flavor: Flavor, tags: readonly string[]): string[] {
  return selectReleases(
    everything(flavor),
    tags.map((tag) => ({ tag, commit: COMMIT })),
    silentLog,
  ).map((r) => r.tag);
}

describe('parseReleaseTag', () => {
  const good: Array<[Flavor, string, string]> = [
    ['mariadb', 'mariadb-10.11.9', '10.11.9'],
    ['mariadb', 'mariadb-10.11.10', '10.11.10'],
    ['mariadb', 'mariadb-5.5.68', '5.5.68'],
    ['mariadb', 'mariadb-11.4.3', '11.4.3'],
    ['mysql', 'mysql-8.0.36', '8.0.36'],
    ['mysql', 'mysql-8.4.0', '8.4.0'],
    ['mysql', 'mysql-5.7.44', '5.7.44'],
    ['percona', 'Percona-Server-8.0.36-28', '8.0.36-28'],
    ['percona', 'Percona-Server-5.7.44-48', '5.7.44-48'],
    ['percona', 'Percona-Server-5.6.51-91.0', '5.6.51-91.0'],
    ['percona', 'Percona-Server-5.5.62-38.14', '5.5.62-38.14'],
  ];
  for (const [flavor, tag, version] of good) {
    test(`${flavor}: ${tag} is release ${version}`, () => {
      const release = parseReleaseTag(flavor, tag);
      assert.equal(release?.tag, tag);
      assert.equal(release?.version.text, version);
    });
  }

  const skipped: Array<[Flavor, string]> = [
    ['mariadb', 'mariadb-10.11.0'],
    ['mariadb', 'mariadb-11.0.0'],
    ['mariadb', 'mariadb-10.10.2-release'],
    ['mariadb', 'mariadb-galera-10.0.38'],
    ['mariadb', 'mariadb-5.5.28a'],
    ['mariadb', 'mysql-5.5.62'],
    ['mysql', 'mysql-cluster-8.0.36'],
    ['mysql', 'mysql-5.5.6-rc'],
    ['mysql', 'mysql-5.1.52sp1'],
    ['mysql', 'mysql-8.0.0-dmr'],
    ['mysql', 'mariadb-10.11.9'],
    ['percona', 'Percona-Server-8.0.12-2rc1'],
    ['percona', 'Percona-Server-5.7.10-2RC2'],
    ['percona', 'Percona-Server-8.0.36'],
    ['percona', 'mysql-8.0.36'],
    ['percona', 'percona-server-8.0.36-28'],
  ];
  for (const [flavor, tag] of skipped) {
    test(`${flavor}: ${tag} is not a release`, () => {
      assert.equal(parseReleaseTag(flavor, tag), undefined);
    });
  }
});

describe('real tag lists', () => {
  test('MariaDB/server: mariadb-X.Y.Z with Z > 0, in version order', () => {
    assert.deepEqual(selectedTags('mariadb', readTagList('mariadb-tags.txt')), [
      'mariadb-5.1.67',
      'mariadb-5.2.14',
      'mariadb-5.3.12',
      'mariadb-5.5.68',
      'mariadb-10.0.38',
      'mariadb-10.1.48',
      'mariadb-10.2.30',
      'mariadb-10.3.38',
      'mariadb-10.4.28',
      'mariadb-10.5.4',
      'mariadb-10.5.9',
      'mariadb-10.5.19',
      'mariadb-10.5.26',
      'mariadb-10.5.27',
      'mariadb-10.6.1',
      'mariadb-10.6.2',
      'mariadb-10.6.3',
      'mariadb-10.6.9',
      'mariadb-10.6.11',
      'mariadb-10.6.12',
      'mariadb-10.6.19',
      'mariadb-10.6.20',
      'mariadb-10.7.8',
      'mariadb-10.8.7',
      'mariadb-10.9.4',
      'mariadb-10.9.5',
      'mariadb-10.10.1',
      'mariadb-10.10.2',
      'mariadb-10.10.3',
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
      'mariadb-11.0.1',
      'mariadb-11.4.2',
      'mariadb-11.4.3',
      'mariadb-11.4.4',
    ]);
  });

  test('mysql/mysql-server: mysql-X.Y.Z only, no cluster, milestone or rc tags', () => {
    assert.deepEqual(selectedTags('mysql', readTagList('mysql-tags.txt')), [
      'mysql-5.0.96',
      'mysql-5.4.3',
      'mysql-5.5.62',
      'mysql-5.6.51',
      'mysql-5.7.9',
      'mysql-5.7.43',
      'mysql-5.7.44',
      'mysql-8.0.11',
      'mysql-8.0.27',
      'mysql-8.0.29',
      'mysql-8.0.30',
      'mysql-8.0.33',
      'mysql-8.0.34',
      'mysql-8.0.35',
      'mysql-8.0.36',
      'mysql-8.0.37',
      'mysql-8.0.38',
      'mysql-8.0.39',
      'mysql-8.0.40',
      'mysql-8.1.0',
      'mysql-8.2.0',
      'mysql-8.3.0',
      'mysql-8.4.0',
      'mysql-8.4.1',
      'mysql-8.4.2',
      'mysql-8.4.3',
      'mysql-9.0.0',
      'mysql-9.0.1',
      'mysql-9.1.0',
    ]);
  });

  test('percona/percona-server: Percona-Server-X.Y.Z-N, builds ordered as numbers, no rc tags', () => {
    assert.deepEqual(selectedTags('percona', readTagList('percona-tags.txt')), [
      'Percona-Server-5.5.48-37.8',
      'Percona-Server-5.5.62-38.14',
      'Percona-Server-5.6.49-89.0',
      'Percona-Server-5.6.51-91.0',
      'Percona-Server-5.7.10-3',
      'Percona-Server-5.7.43-47',
      'Percona-Server-5.7.44-48',
      'Percona-Server-5.7.44-53',
      'Percona-Server-8.0.13-3',
      'Percona-Server-8.0.15-5',
      'Percona-Server-8.0.17-8',
      'Percona-Server-8.0.20-11',
      'Percona-Server-8.0.21-12',
      'Percona-Server-8.0.22-13',
      'Percona-Server-8.0.23-14',
      'Percona-Server-8.0.25-15',
      'Percona-Server-8.0.26-16',
      'Percona-Server-8.0.28-19',
      'Percona-Server-8.0.34-26',
      'Percona-Server-8.0.35-27',
      'Percona-Server-8.0.36-28',
      'Percona-Server-8.0.37-29',
      'Percona-Server-8.0.39-30',
      'Percona-Server-8.1.0-1',
      'Percona-Server-8.3.0-1',
      'Percona-Server-8.4.0-1',
      'Percona-Server-8.4.2-2',
    ]);
  });

  test('a flavor never takes another flavor’s release tags', () => {
    assert.deepEqual(selectedTags('mariadb', readTagList('mysql-tags.txt')), []);
    assert.deepEqual(selectedTags('mariadb', readTagList('percona-tags.txt')), []);
    assert.deepEqual(selectedTags('percona', readTagList('mariadb-tags.txt')), []);
    assert.deepEqual(selectedTags('percona', readTagList('mysql-tags.txt')), []);
    // Both repositories carry MySQL's own tags from merged history: a mysql upstream pointed there finds those.
    assert.deepEqual(selectedTags('mysql', readTagList('mariadb-tags.txt')), ['mysql-5.5.62']);
    assert.deepEqual(selectedTags('mysql', readTagList('percona-tags.txt')), [
      'mysql-5.6.51',
      'mysql-5.7.44',
      'mysql-8.0.36',
      'mysql-8.0.39',
      'mysql-8.4.2',
    ]);
  });

  test('near misses, garbage and hostile names are skipped by every flavor, never an error', () => {
    const edge = readTagList('edge-tags.txt');
    assert.ok(edge.length >= 25);
    for (const flavor of FLAVORS) assert.deepEqual(selectedTags(flavor, edge), [], flavor);
  });
});
