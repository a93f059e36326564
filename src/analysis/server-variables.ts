import type { VariableComparison, VariableDifference } from '../model/index.js';

/**
 * Variables that name the release itself or the state its data is in, not a setting: they differ between any two
 * releases (the version is in every report's header already) or with the transactions a load happened to write.
 */
const NOT_SETTINGS = new Set([
  'version',
  'version_comment',
  'version_source_revision',
  'innodb_version',
  'gtid_binlog_pos',
  'gtid_binlog_state',
  'gtid_current_pos',
  'gtid_slave_pos',
  'gtid_executed',
  'gtid_purged',
  'server_uuid',
]);

/**
 * The variables whose values differ between B and C, by name, and how many were compared. A name only one side has
 * is a difference with the other side's value absent. A list of flags (optimizer_switch: `a=on,b=off,...`) keeps only
 * the flags that differ, so the one that changed is read at a glance.
 */
export function compareServerVariables(
  baseline: Readonly<Record<string, string>>,
  candidate: Readonly<Record<string, string>>,
): VariableComparison {
  const names = [...new Set([...Object.keys(baseline), ...Object.keys(candidate)])]
    .filter((name) => !NOT_SETTINGS.has(name))
    .sort();
  const differences: VariableDifference[] = [];
  for (const name of names) {
    const b = baseline[name];
    const c = candidate[name];
    if (b === c) continue;
    if (b === undefined || c === undefined)
      differences.push({
        name,
        ...(b !== undefined ? { baseline: b } : {}),
        ...(c !== undefined ? { candidate: c } : {}),
      });
    else differences.push({ name, ...flagsThatDiffer(b, c) });
  }
  return { compared: names.length, differences };
}

const FLAG = /^[A-Za-z0-9_]+=[^,=]*$/;

/** Both values as lists of name=value flags: only the flags that differ; else both values whole. */
function flagsThatDiffer(b: string, c: string): { baseline: string; candidate: string } {
  const flags = (v: string): Map<string, string> | undefined => {
    const items = v.split(',');
    if (items.length < 2 || !items.every((i) => FLAG.test(i))) return undefined;
    return new Map(items.map((i) => [i.slice(0, i.indexOf('=')), i.slice(i.indexOf('=') + 1)]));
  };
  const bFlags = flags(b);
  const cFlags = flags(c);
  if (bFlags === undefined || cFlags === undefined) return { baseline: b, candidate: c };
  const names = [...new Set([...bFlags.keys(), ...cFlags.keys()])];
  const differing = names.filter((n) => bFlags.get(n) !== cFlags.get(n));
  const side = (m: Map<string, string>): string =>
    differing.map((n) => (m.has(n) ? `${n}=${m.get(n)}` : `(no ${n})`)).join(',');
  return { baseline: side(bFlags), candidate: side(cFlags) };
}
