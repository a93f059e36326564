#!/usr/bin/env node
// The installed entry point: runs the compiled CLI (npm run build writes dist/).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/run.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('qpswatch: dist/ is missing: run `npm run build` in the project folder first\n');
  process.exit(2);
}
await import(entry.href);
