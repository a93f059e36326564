// Preloaded into every test file's process by scripts/test.sh (node --import): waits for the file's share of the host
// (host-share.ts) before the file starts. The test runner's own process loads it too, and holds nothing.
import { holdHostShare } from './host-share.js';

const file = process.argv[1] ?? '';
if (file.endsWith('.test.js')) await holdHostShare(file);
