import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openStore } from '../../../src/store/index.js';
import { storedInstallPathContract } from './stored-install-path-contract.js';

const root = mkdtempSync(join(tmpdir(), 'qpsw-install-path-store-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
storedInstallPathContract('sqlite', () => openStore({ backend: 'sqlite', path: join(root, `s${++n}.sqlite`) }));
