/**
 * my.cnf treats - and _ alike and ignores a "loose-" prefix; these helpers compare names the way the server does.
 */
export function normalizeOptionName(name: string): string {
  return name
    .toLowerCase()
    .replace(/-/g, '_')
    .replace(/^loose_/, '');
}

/**
 * Options qpswatch writes itself: paths it manages, how the server listens, and what keeps it closed to other local
 * users (the user it runs as, secure_file_priv; skip-grant-tables would let anyone in).
 */
const OWNED = new Set([
  'datadir',
  'socket',
  'pid_file',
  'log_error',
  'tmpdir',
  'basedir',
  'user',
  'port',
  'bind_address',
  'networking',
  'secure_file_priv',
  'grant_tables',
]);

/** "skip-networking" and "enable-networking" touch "networking": the modifiers are stripped before the check. */
export function isOwnedOption(name: string): boolean {
  return OWNED.has(normalizeOptionName(name).replace(/^(skip|enable|disable)_/, ''));
}
