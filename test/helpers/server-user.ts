import { chmodSync } from 'node:fs';

/**
 * Run as root, qpswatch starts mysqld as the mysql user, which must pass through every folder above its files; a
 * test's mkdtemp folder is 0700. 0711 lets it pass without letting anyone list the folder; the folders qpswatch makes
 * inside keep everyone but it and the server's group out.
 */
export function letServerPass(dir: string): string {
  chmodSync(dir, 0o711);
  return dir;
}
