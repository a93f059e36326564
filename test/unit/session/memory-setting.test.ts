import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkMemorySetting,
  estimatedDataBytes,
  memoryProblem,
  MemorySettingError,
  withMemorySetting,
  type MemoryFacts,
  type PreparedTarget,
} from '../../../src/session/index.js';
import { parseServerProfile, profilePoolBytes, renderMyCnf, serverPaths } from '../../../src/server/index.js';
import { parseVersion } from '../../../src/version/index.js';
import { joined } from '../../helpers/pattern.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** 8 tables of 1M rows (about 1.9 GiB) on a host with room: the facts each case changes one of. */
function facts(over: Partial<MemoryFacts>): MemoryFacts {
  return {
    setting: 'cached',
    data: { suite: 'eight', loads: [{ tables: 8, tableSize: 1_000_000 }] },
    sides: [
      { profile: 'relaxed', poolBytes: 4 * GiB },
      { profile: 'relaxed', poolBytes: 4 * GiB },
    ],
    serversAtOnce: 2,
    overheadBytes: 384 * MiB,
    availableMemoryBytes: 20 * GiB,
    stateDir: '/var/lib/qpswatch',
    freeDiskBytes: 100 * GiB,
    fsType: 'ext4',
    ...over,
  };
}

test('the data estimate is tables x rows x 250 bytes', () => {
  assert.equal(estimatedDataBytes({ suite: 's', loads: [{ tables: 4, tableSize: 1000 }] }), 4 * 1000 * 250);
  assert.equal(
    estimatedDataBytes({
      suite: 'levels',
      loads: [
        { tables: 1, tableSize: 1000 },
        { tables: 4, tableSize: 1000 },
      ],
    }),
    5 * 1000 * 250,
    "every level's data set is in the pool",
  );
});

test('a cached pool that holds the data, and an io-bound pool the data is several times, pass', () => {
  assert.equal(memoryProblem(facts({})), undefined);
  assert.equal(
    memoryProblem(facts({ setting: 'io-bound', sides: [{ profile: 'relaxed', poolBytes: 512 * MiB }] })),
    undefined,
  );
});

test('a cached setting too small for its data is refused in one line with the sizes and the fix', () => {
  const small = facts({
    sides: [
      { profile: 'relaxed', poolBytes: 4 * GiB },
      { profile: 'tiny-pool', poolBytes: 1 * GiB },
    ],
  });
  assert.throws(
    () => checkMemorySetting(small),
    (err: unknown) => {
      assert.ok(err instanceof MemorySettingError);
      const line = err.message;
      assert.ok(!line.includes('\n'), line);
      assert.equal(
        line,
        'memory setting cached: the data of suite eight (about 1.9 GiB: 8 ' +
          'table(s) x 1000000 rows x 250 bytes) does not fit in the buffer pool ' +
          'of server profile tiny-pool ' +
          ('(innodb_buffer_pool_size 1.0 GiB; it needs 2.3 GiB to hold the data ' +
            'with room to spare): set innodb_buffer_pool_size to 2385M or more in ' +
            'server profile tiny-pool, or use a suite with fewer rows'),
      );
      return true;
    },
  );
});

test('a cached setting the host cannot hold says so instead of asking for a larger pool', () => {
  const line = memoryProblem(
    facts({ sides: [{ profile: 'relaxed', poolBytes: 1 * GiB }], availableMemoryBytes: 4 * GiB }),
  );
  assert.match(
    line!,
    joined(
      /this host \(4\.0 GiB available, 2 server\(s\) at once\) /,
      /cannot cache it: use a suite with fewer rows, or run it /,
      /io-bound only$/,
    ),
  );
});

test(
  'cached pools that hold the data but not fit the host together are ' + 'refused, unless one server runs at a time',
  () => {
    const big = facts({
      sides: [
        { profile: 'relaxed', poolBytes: 8 * GiB },
        { profile: 'relaxed', poolBytes: 8 * GiB },
      ],
      availableMemoryBytes: 12 * GiB,
    });
    assert.equal(
      memoryProblem(big),
      'the buffer pools of the 2 server(s) up at once (relaxed 8.0 GiB, ' +
        'relaxed 8.0 GiB, plus 384.0 MiB each) need about 16.8 GiB, and this ' +
        'host has 12.0 GiB available: ' +
        ('use server profiles with a smaller innodb_buffer_pool_size that still ' +
          'holds the data, the whole-run design (--design runs), or run it ' +
          'io-bound only'),
    );
    assert.equal(memoryProblem({ ...big, serversAtOnce: 1 }), undefined);
  },
);

test('io-bound refuses data that is not several times the pool, and a state_dir on tmpfs', () => {
  const fits = memoryProblem(facts({ setting: 'io-bound', sides: [{ profile: 'relaxed', poolBytes: 1 * GiB }] }));
  assert.match(
    fits!,
    joined(
      /^memory setting|is not 3 times the buffer pool /,
      /\(io_bound_buffer_pool 1\.0 GiB\).*at least 12884902 rows in /,
      /all, or a smaller io_bound_buffer_pool$/,
    ),
  );
  const tmpfs = memoryProblem(
    facts({ setting: 'io-bound', sides: [{ profile: 'relaxed', poolBytes: 8 * MiB }], fsType: 'tmpfs' }),
  );
  assert.match(
    tmpfs!,
    /state_dir \/var\/lib\/qpswatch is on tmpfs, .*no O_DIRECT.*move state_dir to a disk filesystem/,
  );
});

test('io-bound with levels: each load is read alone, so the smallest must be several times the pool', () => {
  // 1 table of 120,000 rows (about 29 MiB) and 4 of them: the 1-table load over 3 times an 8M pool, not a 16M one.
  const levels = {
    suite: 'levels',
    loads: [
      { tables: 1, tableSize: 120_000 },
      { tables: 4, tableSize: 120_000 },
    ],
  };
  assert.equal(
    memoryProblem(facts({ setting: 'io-bound', data: levels, sides: [{ profile: 'relaxed', poolBytes: 8 * MiB }] })),
    undefined,
  );
  const line = memoryProblem(
    facts({ setting: 'io-bound', data: levels, sides: [{ profile: 'relaxed', poolBytes: 16 * MiB }] }),
  );
  assert.equal(
    line,
    'the smallest load of suite levels (about 28.6 MiB: 1 table(s) x 120000 ' +
      "rows x 250 bytes), which its level's tests read alone, is not 3 times " +
      'the buffer pool ' +
      ('(io_bound_buffer_pool 16.0 MiB), so most reads would hit the pool: use ' +
        'a suite with at least 201327 rows in each load, or a smaller ' +
        'io_bound_buffer_pool'),
  );
});

test('either setting is refused when state_dir has no room for the copies of the data', () => {
  const line = memoryProblem(facts({ freeDiskBytes: 5 * GiB }));
  assert.match(
    line!,
    joined(
      /needs about 7\.5 GiB free under state_dir /,
      /\/var\/lib\/qpswatch .* and it has 5\.0 GiB: free space /,
      /there, move state_dir, or use a suite with fewer rows$/,
    ),
  );
});

test('io-bound lays its pool and O_DIRECT over the profile, after its own overrides; cached keeps the profile', () => {
  const profile = parseServerProfile(
    'description: test\nsettings:\n  innodb-buffer-pool-size: 1G\n  ' +
      'innodb_flush_method: fsync\noverrides:\n  - versions: ">=10.5"\n    ' +
      'set: { innodb_buffer_pool_size: 2G }\n',
    'p',
    'p.yaml',
  );
  const binaries = { flavor: 'mariadb', version: parseVersion('10.11.9') } as unknown as PreparedTarget['binaries'];
  const target = { name: 't', binaries, profile, ref: {} } as unknown as PreparedTarget;
  const io = withMemorySetting(target, 'io-bound', '8M');
  assert.equal(profilePoolBytes(io.profile, binaries), 8 * MiB);
  assert.equal(profilePoolBytes(withMemorySetting(target, 'cached', '8M').profile, binaries), 2 * GiB);
  const myCnf = renderMyCnf(io.profile, binaries, serverPaths('/tmp/qw'));
  assert.match(myCnf, /^innodb_buffer_pool_size=8M$/m);
  assert.match(myCnf, /^innodb_flush_method=O_DIRECT$/m);
  assert.equal(myCnf.match(/buffer.pool.size/g)?.length, 1, 'one line sets the pool');
});
