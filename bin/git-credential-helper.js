#!/usr/bin/env node
/**
 * git's credential helper for a remote with credentials (see src/upstream/git-credentials.ts). git runs it as `... get`
 * and
 * writes the request's protocol= and host= lines on stdin; it answers username= and password= lines from its
 * environment, for that protocol and host only. `store` and `erase` are ignored: nothing is kept anywhere.
 * A program of its own, run by git (not by qpswatch), so it imports nothing of qpswatch and needs no build.
 */
import { readFileSync } from 'node:fs';

function main() {
  if (process.argv[2] !== 'get') return;
  const asked = new Map();
  for (const line of readFileSync(0, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) asked.set(line.slice(0, eq), line.slice(eq + 1));
  }
  const env = process.env;
  const ours =
    asked.get('protocol') === env.QPSWATCH_GIT_PROTOCOL &&
    asked.get('host')?.toLowerCase() === env.QPSWATCH_GIT_HOST?.toLowerCase();
  if (!ours || env.QPSWATCH_GIT_USERNAME === undefined) return;
  process.stdout.write(`username=${env.QPSWATCH_GIT_USERNAME}\npassword=${env.QPSWATCH_GIT_PASSWORD ?? ''}\n`);
}

main();
