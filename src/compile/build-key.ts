import { createHash } from 'node:crypto';
import { defaultEnv, ExecNotFoundError, run } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { BuildToolMissingError } from './errors.js';
import type { BuildProfile } from './profile.js';

const COMMIT_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const KEY_HEX = 16;

/**
 * The parts of a profile that change what gets installed. Description, jobs, ccache and the time limit do not:
 * raising a timeout must not rebuild every release. Patches count by their contents (buildKey's patches), not by
 * where their files are.
 */
export function profileContent(profile: BuildProfile): unknown {
  return { generator: profile.generator, cmake_flags: profile.cmakeFlags, env: profile.env };
}

/** sha256 of the profile's content as canonical JSON (object keys sorted at every level). */
export function profileHash(profile: BuildProfile): string {
  return sha256(canonicalJson(profileContent(profile)));
}

export interface BuildKeyInput {
  /** The commit the release tag points to (40 hex, or 64 for sha256 repositories). */
  readonly commit: string;
  readonly profile: BuildProfile;
  /** First line of the C compiler's `--version` (see compilerVersion). */
  readonly compilerVersion: string;
  /** sha256 (hex) of each patch applied before the build, in the order they are applied. */
  readonly patches?: readonly string[];
  /**
   * The host the install is for, in a store several hosts share (store_backend mysql): a build's row names an
   * install on one host's disk, so each host has keys of its own. Empty or absent: the key a lone host has always had.
   */
  readonly host?: string;
}

const SHA256_RE = /^[0-9a-f]{64}$/;

/**
 * 16 hex characters naming one build: the same commit, profile content, patches and compiler are never built twice.
 * Without patches the key is what it was before patches existed, so existing builds stay valid.
 */
export function buildKey(input: BuildKeyInput): string {
  if (!COMMIT_RE.test(input.commit))
    throw new TypeError(`build key: commit must be 40 or 64 lower-case hex characters, got "${input.commit}"`);
  const compiler = input.compilerVersion.trim();
  if (compiler === '') throw new TypeError('build key: the compiler version is empty');
  const patches = input.patches ?? [];
  const bad = patches.find((p) => !SHA256_RE.test(p));
  if (bad !== undefined)
    throw new TypeError(`build key: a patch checksum must be 64 lower-case hex characters, got "${bad}"`);
  const text = canonicalJson({
    commit: input.commit,
    profile: profileHash(input.profile),
    compiler,
    ...(patches.length > 0 ? { patches } : {}),
    ...(input.host !== undefined && input.host !== '' ? { host: input.host } : {}),
  });
  return sha256(text).slice(0, KEY_HEX);
}

/**
 * The first line of `$CC --version` under the profile's environment (CC defaults to cc): a compiler upgrade
 * makes new builds. The C compiler stands for the toolchain; a profile that picks other compilers names them
 * in env (CC, CXX), which the profile hash covers.
 */
export async function compilerVersion(profile: Pick<BuildProfile, 'env'>, log?: Logger): Promise<string> {
  const env = { ...defaultEnv(), ...profile.env };
  // CC may carry arguments ("gcc -m64"); its first word is the program.
  const cc = (env['CC'] ?? 'cc').trim().split(/\s+/)[0] || 'cc';
  try {
    const result = await run({ argv: [cc, '--version'], env, timeoutMs: 30_000, log });
    const line = result.stdout.split('\n').find((l) => l.trim() !== '');
    if (line === undefined) throw new TypeError(`${cc} --version printed nothing`);
    return line.trim();
  } catch (err) {
    if (err instanceof ExecNotFoundError) throw new BuildToolMissingError(cc, 'build-essential');
    throw err;
  }
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
