import { existsSync } from 'node:fs';
import { defaultEnv, ExecNotFoundError, ExecTimeoutError, run, type RunResult } from '../exec/index.js';
import {
  GitCommandError,
  GitNotFoundError,
  NotAGitRepositoryError,
  RemotePathMissingError,
  RemoteCredentialsError,
  RemoteUnreachableError,
} from './errors.js';
import type { GitRemote } from './git-credentials.js';
import { localPathOf } from './remote.js';
import type { Logger } from '../log/index.js';

export interface GitOptions {
  /** The git program: a name on PATH or an absolute path. Default "git". */
  git?: string;
  timeoutMs?: number;
  /** Abort stops git by escalation and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Given to exec: each git child's exit is logged there. */
  log?: Logger;
}

// ext:: runs a command and is off by default; saying so again costs nothing. A detached auto-gc would outlive the
// process group that exec stops on a timeout, so gc runs in the foreground.
const GIT_CONFIG = ['-c', 'protocol.ext.allow=never', '-c', 'gc.autoDetach=false', '-c', 'advice.detachedHead=false'];

/** Never wait for a person: no terminal prompt for a password, no ssh question about a host key. */
function gitEnv(): Record<string, string> {
  return { ...defaultEnv(), GIT_TERMINAL_PROMPT: '0', GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' };
}

interface GitCall extends GitOptions {
  args: readonly string[];
  /** Set when git talks to this remote: its failures become RemoteError subclasses. */
  remote?: string;
  /** The remote's credential helper and its environment (gitRemote), when its URL has a user part. */
  login?: GitRemote;
  defaultTimeoutMs: number;
}

/** Runs git with an argv array; a non-zero exit becomes a typed error. */
export async function runGit(call: GitCall): Promise<RunResult> {
  const git = call.git ?? 'git';
  const timeoutMs = call.timeoutMs ?? call.defaultTimeoutMs;
  let result: RunResult;
  try {
    result = await run({
      argv: [git, ...GIT_CONFIG, ...(call.login?.configArgs ?? []), ...call.args],
      env: { ...gitEnv(), ...call.login?.env },
      // A fixed folder outside any repository: what git does never depends on where the daemon was started.
      cwd: '/',
      timeoutMs,
      killGraceMs: 2000,
      allowFailure: true,
      ...(call.signal !== undefined ? { signal: call.signal } : {}),
      ...(call.log !== undefined ? { log: call.log } : {}),
    });
  } catch (err) {
    if (err instanceof ExecNotFoundError) throw new GitNotFoundError(git);
    if (err instanceof ExecTimeoutError && call.remote !== undefined) {
      throw new RemoteUnreachableError(call.remote, `no answer within ${Math.round(timeoutMs / 1000)} s`);
    }
    throw err;
  }
  call.signal?.throwIfAborted();
  if (result.exitCode !== 0) throw failure(call, result);
  return result;
}

function failure(call: GitCall, result: RunResult): Error {
  if (call.remote !== undefined) {
    const remoteError = classifyRemoteFailure(call.remote, result.stderr);
    if (remoteError !== undefined) return remoteError;
  }
  return new GitCommandError(result.argv, result.exitCode, result.tail);
}

const CREDENTIALS =
  /terminal prompts disabled|could not read (?:Username|Password)|Authentication failed|Permission denied \(publickey/i;
const UNREACHABLE = new RegExp(
  [
    'unable to access',
    'unable to connect',
    'could not resolve',
    'connection refused',
    'connection timed out',
    'no route to host',
    'could not read from remote repository',
    "repository '.*' not found",
    'early EOF',
    'the remote end hung up',
  ].join('|'),
  'i',
);
const NOT_A_REPOSITORY = /does not appear to be a git repository|not a git repository/i;

/** What a failed git command says about the remote, or undefined when the failure is not the remote's. */
export function classifyRemoteFailure(remote: string, stderr: string): Error | undefined {
  const local = localPathOf(remote);
  if (local !== undefined) {
    if (!existsSync(local)) return new RemotePathMissingError(remote);
    return NOT_A_REPOSITORY.test(stderr) ? new NotAGitRepositoryError(remote) : undefined;
  }
  if (CREDENTIALS.test(stderr)) return new RemoteCredentialsError(remote, gitReason(stderr));
  if (UNREACHABLE.test(stderr)) return new RemoteUnreachableError(remote, gitReason(stderr));
  return undefined;
}

/** git's own explanation on one line: the first "fatal:" line, plus the errno line git:// adds below it. */
export function gitReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const fatal =
    lines
      .find((l) => l.startsWith('fatal:'))
      ?.slice('fatal:'.length)
      .trim() ??
    lines.at(-1) ??
    'no output';
  const errno = lines.find((l) => l.includes('errno='))?.replace(/^.*errno=/, '');
  const reason = errno !== undefined ? `${fatal.replace(/:$/, '')}: ${errno}` : fatal;
  return reason.length > 200 ? `${reason.slice(0, 197)}...` : reason;
}
