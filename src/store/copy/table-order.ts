/** A foreign key of the target: `table` references `references`. */
export interface ForeignKey {
  table: string;
  references: string;
}

/**
 * The tables in an order where every table comes after the tables it references, so rows can be inserted with the
 * target's foreign keys checked. Among tables free to go, the order of `tables` is kept (the schema's own order);
 * a reference to itself or to a table not in the list does not hold a table back. A cycle cannot be inserted in
 * any order: its tables are returned in `cycle`.
 */
export function copyOrder(
  tables: readonly string[],
  keys: readonly ForeignKey[],
): { order: string[]; cycle: string[] } {
  const known = new Set(tables);
  const needs = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const k of keys)
    if (k.table !== k.references && known.has(k.table) && known.has(k.references))
      needs.get(k.table)!.add(k.references);
  const order: string[] = [];
  const placed = new Set<string>();
  for (let progress = true; progress;) {
    progress = false;
    for (const t of tables) {
      if (placed.has(t) || [...needs.get(t)!].some((n) => !placed.has(n))) continue;
      order.push(t);
      placed.add(t);
      progress = true;
      break;
    }
  }
  return { order, cycle: tables.filter((t) => !placed.has(t)) };
}
