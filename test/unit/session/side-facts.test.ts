import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fillPlaceholders, instanceNeutral } from '../../../src/session/index.js';

const instance = {
  dir: '/var/lib/qpswatch/work/session-7/baseline/mariadb-10.11.9',
  paths: {
    datadir: '/var/lib/qpswatch/work/session-7/baseline/mariadb-10.11.9/data',
    socket: '/var/lib/qpswatch/run/7-b.sock',
    pidFile: '',
    errorLog: '',
    tmpdir: '',
    secureFileDir: '',
  },
};

describe('instanceNeutral', () => {
  test("the instance's folder, socket, install folder and port become placeholders; settings stay as they are", () => {
    const got = instanceNeutral(
      {
        datadir: `${instance.dir}/data/`,
        socket: instance.paths.socket,
        basedir: '/var/lib/qpswatch/builds/mariadb-10.11.9/',
        plugin_dir: '/var/lib/qpswatch/builds/mariadb-10.11.9/lib/plugin/',
        port: '3307',
        sync_binlog: '0',
        general_log_file: 'host.log',
      },
      instance,
    );
    assert.deepEqual(got, {
      datadir: '<instance>/data/',
      socket: '<socket>',
      basedir: '<basedir>/',
      plugin_dir: '<basedir>/lib/plugin/',
      port: '<port>',
      sync_binlog: '0',
      general_log_file: 'host.log',
    });
  });

  test('a basedir of / is left alone, or every path would become a placeholder', () => {
    const got = instanceNeutral({ basedir: '/', character_sets_dir: '/share/charsets/' }, instance);
    assert.deepEqual(got, { basedir: '/', character_sets_dir: '/share/charsets/' });
  });
});

describe('fillPlaceholders', () => {
  test('each ? becomes the next number from the middle of the table; one in quotes stays', () => {
    assert.equal(
      fillPlaceholders("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? AND pad <> '?'", 2000),
      "SELECT c FROM sbtest1 WHERE id BETWEEN 1000 AND 1001 AND pad <> '?'",
    );
    assert.equal(
      fillPlaceholders('UPDATE `a?` SET c=? WHERE id IN (?, ?)', 1),
      'UPDATE `a?` SET c=1 WHERE id IN (2, 3)',
    );
  });
});
