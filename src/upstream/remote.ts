import { fileURLToPath } from 'node:url';
import { InvalidRemoteError } from './errors.js';

// No control characters anywhere: a newline would end a config line or a log line early.
const CONTROL = /[\u0000-\u001f\u007f]/;
// The part after "://" must not start with "-": an ssh host like "-oProxyCommand=..." is an option in disguise.
const URL_RE = /^(?:https?|git|ssh|file):\/\/[^\s-][^\s]*$/;
const SCP_RE = /^[A-Za-z0-9._][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9.-]*:[^\s]+$/;

/**
 * A remote qpswatch accepts: an https/http/git/ssh/file URL, user@host:path, or an absolute path. Never a relative
 * path (it would depend on the daemon's working folder), never "ext::" (it runs a command), never text starting with "-".
 */
export function isRemoteText(remote: string): boolean {
  if (remote === '' || CONTROL.test(remote) || remote.startsWith('-')) return false;
  return remote.startsWith('/') || URL_RE.test(remote) || SCP_RE.test(remote);
}

export function assertRemote(remote: string): void {
  if (!isRemoteText(remote)) throw new InvalidRemoteError(remote);
}

/** The folder a local remote names, or undefined for a network remote. */
export function localPathOf(remote: string): string | undefined {
  if (remote.startsWith('/')) return remote;
  if (remote.startsWith('file://')) {
    try {
      return fileURLToPath(remote);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
