import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { copyOrder, type ForeignKey } from '../../../../src/store/copy/table-order.js';
import { mysqlMigrations } from '../../../../src/store/mysql/schema.js';

/** The tables and foreign keys of the MySQL schema's statements, as information_schema would list them. */
function schemaTables(): { tables: string[]; keys: ForeignKey[] } {
  const tables: string[] = [];
  const keys: ForeignKey[] = [];
  for (const step of mysqlMigrations.flatMap((m) => m.steps)) {
    const name = /^CREATE TABLE IF NOT EXISTS (\w+)/.exec(step)?.[1];
    if (name === undefined) continue;
    tables.push(name);
    for (const m of step.matchAll(/REFERENCES (\w+)/g)) keys.push({ table: name, references: m[1]! });
  }
  return { tables, keys };
}

describe('store copy: the order of the tables', () => {
  test('a table comes after the tables it references; free tables keep their order', () => {
    const keys = [
      { table: 'samples', references: 'sessions' },
      { table: 'sessions', references: 'hosts' },
      { table: 'checks', references: 'sessions' },
      { table: 'checks', references: 'releases' },
    ];
    assert.deepEqual(copyOrder(['checks', 'samples', 'sessions', 'releases', 'hosts'], keys), {
      order: ['releases', 'hosts', 'sessions', 'checks', 'samples'],
      cycle: [],
    });
  });

  test('a reference to itself or to a table not copied holds nothing back; a cycle is named', () => {
    assert.deepEqual(
      copyOrder(
        ['a', 'b'],
        [
          { table: 'a', references: 'a' },
          { table: 'b', references: 'gone' },
        ],
      ),
      { order: ['a', 'b'], cycle: [] },
    );
    assert.deepEqual(
      copyOrder(
        ['x', 'y', 'z'],
        [
          { table: 'x', references: 'y' },
          { table: 'y', references: 'x' },
        ],
      ),
      { order: ['z'], cycle: ['x', 'y'] },
    );
  });

  test("from the MySQL schema's foreign keys, tables listed by name come out in an order that inserts", () => {
    const { tables, keys } = schemaTables();
    const { order, cycle } = copyOrder([...tables].sort(), keys);
    assert.deepEqual(cycle, []);
    assert.deepEqual([...order].sort(), [...tables].sort());
    for (const k of keys)
      if (k.table !== k.references)
        assert.ok(order.indexOf(k.references) < order.indexOf(k.table), `${k.references} before ${k.table}`);
    assert.ok(keys.length > 15, 'the schema has its foreign keys');
  });
});
