import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../paths.js';

const PackageJson = z.object({ version: z.string().min(1) });

/** The version in package.json, the one npm and install.sh ship. */
export function packageVersion(): string {
  return PackageJson.parse(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'))).version;
}
