import { chmod, lstat, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const KEY_RE = /^[0-9a-f]{16}$/;
/** Beside install/, not in it: the installed tree stays exactly what cmake --install wrote. */
export const INSTALL_MARKER = 'install-complete.json';

/** Where one keyed build lives: <state>/builds/<key>/{install,build.log,install-complete.json}. */
export interface BuildPaths {
  readonly root: string;
  readonly installDir: string;
  readonly logFile: string;
  /** Written last: its presence, and only that, means the install is complete. */
  readonly marker: string;
}

/** What the marker records about a finished install. */
export interface InstallRecord {
  readonly key: string;
  /** The worktree it was built from; none for an install unpacked from a tarball. */
  readonly worktree?: string;
  /** The tarball it was unpacked from (installTarball), with its verified sha256. */
  readonly tarball?: { readonly url: string; readonly sha256: string };
  readonly profile: string;
  readonly finishedAt: string;
  readonly durationsMs: Readonly<Record<string, number>>;
}

export function buildPathsFor(stateDir: string, key: string): BuildPaths {
  // The key becomes a folder name: anything but 16 hex characters could walk out of builds/.
  if (!KEY_RE.test(key)) throw new TypeError(`build key must be 16 lower-case hex characters, got "${key}"`);
  const root = join(stateDir, 'builds', key);
  return {
    root,
    installDir: join(root, 'install'),
    logFile: join(root, 'build.log'),
    marker: join(root, INSTALL_MARKER),
  };
}

export function installDirFor(stateDir: string, key: string): string {
  return buildPathsFor(stateDir, key).installDir;
}

/** The finished install's record; undefined while the build is missing or half done. */
export async function readInstallRecord(stateDir: string, key: string): Promise<InstallRecord | undefined> {
  const text = await readFile(buildPathsFor(stateDir, key).marker, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as InstallRecord;
  } catch {
    // A marker is written by rename, so a torn one means someone edited it: treat the install as unfinished.
    return undefined;
  }
}

export async function isInstallComplete(stateDir: string, key: string): Promise<boolean> {
  return (await readInstallRecord(stateDir, key)) !== undefined;
}

/**
 * Written to a temporary name and renamed, so a crash never leaves a marker for a half-written install. Before it,
 * the install is opened to every user: run as root, qpswatch starts the server as server_user, which must read its
 * binaries, plugins and share files; qpswatch's umask (027) would keep them root's. An install holds no secret.
 */
export async function markInstallComplete(paths: BuildPaths, record: InstallRecord): Promise<void> {
  await openToAll(paths);
  const tmp = `${paths.marker}.tmp`;
  await writeFile(tmp, JSON.stringify(record, null, 2) + '\n');
  await rename(tmp, paths.marker);
}

async function openToAll(paths: BuildPaths): Promise<void> {
  for (const dir of [dirname(paths.root), paths.root]) await chmod(dir, 0o755);
  await openTree(paths.installDir);
}

/**
 * Folders r-x and files r-- for everyone, keeping what the owner had (an executable stays executable); links as they
 * are.
 */
async function openTree(path: string): Promise<void> {
  const stat = await lstat(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    await chmod(path, (stat.mode & 0o7777) | 0o755);
    for (const name of await readdir(path)) await openTree(join(path, name));
  } else {
    await chmod(path, (stat.mode & 0o7777) | 0o444 | (stat.mode & 0o100 ? 0o111 : 0));
  }
}

/** The marker goes first: from then on the folder is an unfinished build, whatever is left of it. */
export async function removeInstallMarker(paths: BuildPaths): Promise<void> {
  await rm(paths.marker, { force: true });
}
