import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StoreCopyRefusedError } from '../../../../src/store/index.js';
import type { TargetSchema, TargetTable } from '../../../../src/store/copy/mysql-target.js';
import { planCopy, type SourceFacts } from '../../../../src/store/copy/plan.js';
import type { SourceTable } from '../../../../src/store/copy/sqlite-source.js';

const source = (name: string, columns: string[]): SourceTable => ({
  name,
  columns,
  withoutRowid: false,
  primaryKey: [columns[0]!],
});

const column = (name: string, fillable = false, generated = false) => ({
  name,
  kind: 'text' as const,
  fillable,
  generated,
});

const target = (name: string, columns: ReturnType<typeof column>[]): TargetTable => ({
  name,
  columns,
  primaryKey: [columns[0]!.name],
  uniqueKeys: [],
});

function facts(tables: SourceTable[], rows: Record<string, number> = {}): SourceFacts {
  return { tables, count: (t) => rows[t] ?? 0, countNonNull: (t, c) => rows[`${t}.${c}`] ?? 0 };
}

const schema: TargetSchema = {
  tables: [
    target('hosts', [column('id'), column('name')]),
    target('sessions', [column('id'), column('host_id'), column('seq', true), column('open', true, true)]),
    target('schema_version', [column('id'), column('version')]),
  ],
  foreignKeys: [{ table: 'sessions', references: 'hosts' }],
};

describe('store copy: the plan', () => {
  test('the tables both have, in foreign-key order, with the columns both have; bookkeeping left out', () => {
    const plans = planCopy(
      facts([source('sessions', ['id', 'host_id']), source('hosts', ['id', 'name']), source('results_mark', ['id'])]),
      schema,
    );
    assert.deepEqual(
      plans.map((p) => [p.name, p.columns.map((c) => c.name), p.key]),
      [
        ['hosts', ['id', 'name'], ['id']],
        ['sessions', ['id', 'host_id'], ['id']],
      ],
    );
  });

  test('a source column the target lacks: left out when empty, refused when it holds data', () => {
    const tables = [source('hosts', ['id', 'name', 'retired'])];
    assert.deepEqual(
      planCopy(facts(tables), schema)[0]?.columns.map((c) => c.name),
      ['id', 'name'],
    );
    assert.throws(
      () => planCopy(facts(tables, { 'hosts.retired': 3 }), schema),
      (err: unknown) =>
        err instanceof StoreCopyRefusedError &&
        err.table === 'hosts' &&
        /no column hosts\.retired for the values of its 3 rows/.test(err.message),
    );
  });

  test('a source table the target lacks: skipped when empty, refused with rows', () => {
    const tables = [source('hosts', ['id', 'name']), source('notes', ['id'])];
    assert.deepEqual(
      planCopy(facts(tables), schema).map((p) => p.name),
      ['hosts'],
    );
    assert.throws(() => planCopy(facts(tables, { notes: 2 }), schema), /no table notes for its 2 rows/);
  });

  test('a target column that needs a value the source cannot give is refused', () => {
    const strict: TargetSchema = { tables: [target('hosts', [column('id'), column('name')])], foreignKeys: [] };
    assert.throws(
      () => planCopy(facts([source('hosts', ['id'])]), strict),
      /column hosts\.name needs a value and the source has no such column/,
    );
  });
});
