import { run } from '../exec/index.js';

// A large loaded datadir (the IO-bound setups hold hundreds of GB) may take longer to copy than exec's default.
const COPY_TIMEOUT_MS = 6 * 3600_000;

/**
 * Copies a datadir (or a copy of one) to `to`, which must not exist. cp(1), not fs.cp: a datadir is some hundreds of
 * small files (the mysql and sys schemas) beside a few large ones, and fs.cp walks them in JavaScript: 370 ms against
 * cp -a's 140 ms for a freshly loaded one, paid before every server start. -a keeps owners, modes and times; -T makes
 * the copy `to` itself, never a folder inside it.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  await run({ argv: ['cp', '-a', '-T', '--', from, to], timeoutMs: COPY_TIMEOUT_MS });
}
