/**
 * The families the relative-QPS studies group their tests in, so a suite of 25 tests reads as four short tables:
 * point queries, range queries, range queries with aggregation, writes. Decided by the test's name, as the studies
 * name them (sysbench's scripts and this project's own); a name that fits none is in "other tests".
 */
export const TEST_FAMILIES = [
  'point queries',
  'range queries',
  'range queries with aggregation',
  'writes',
  'other tests',
] as const;
export type TestFamily = (typeof TEST_FAMILIES)[number];

const RULES: ReadonlyArray<[RegExp, TestFamily]> = [
  [/^(update|insert|delete|write|read-write|oltp_write|oltp_insert|oltp_delete|oltp_update)/, 'writes'],
  [/^(read-only|oltp_read_only|oltp_read)/, 'range queries with aggregation'],
  [/^(range|scan)/, 'range queries'],
  [/^(point|points|random-points|hot-points|oltp_point)/, 'point queries'],
];

export function testFamily(test: string): TestFamily {
  return RULES.find(([pattern]) => pattern.test(test))?.[1] ?? 'other tests';
}

/** The items grouped by their test's family, in the families' order; empty families left out. */
export function byFamily<T>(items: readonly T[], testOf: (item: T) => string): { family: TestFamily; items: T[] }[] {
  return TEST_FAMILIES.map((family) => ({
    family,
    items: items.filter((i) => testFamily(testOf(i)) === family),
  })).filter((g) => g.items.length > 0);
}
