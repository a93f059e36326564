/** mysqld refuses to run as root unless told --user=root; as anyone else it needs no --user. */
export function defaultServerUser(): string | undefined {
  return process.getuid?.() === 0 ? 'root' : undefined;
}
