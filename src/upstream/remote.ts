import { fileURLToPath } from 'node:url';
import { splitUrl } from '../log/index.js';
import { InvalidRemoteError } from './errors.js';

// No control characters anywhere: a newline would end a config line or a log line early.
const CONTROL = /[\u0000-\u001f\u007f]/;
// The part after "://" must not start with "-": an ssh host like "-oProxyCommand=..." is an option in disguise.
const URL_RE = /^(?:https?|git|ssh|file):\/\/[^\s-][^\s]*$/;
const SCP_RE = /^[A-Za-z0-9._][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9.-]*:[^\s]+$/;

/**
 * A remote qpswatch accepts: an https/http/git/ssh/file URL, user@host:path, or an absolute path. Never a relative
 * path (it would depend on the daemon's working folder), never "ext::" (it runs a command), never text starting with
 * "-".
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

/**
 * Why a URL's user part cannot be used as it is, or undefined when it can (or there is none): over http:// it would
 * cross the network in the clear (loopback is not the network), and ssh never takes a password from a URL, while
 * git would put it on ssh's command line for every local user to read.
 */
export function credentialProblem(url: string): string | undefined {
  const parts = splitUrl(url);
  if (parts === undefined || parts.userinfo === '') return undefined;
  const scheme = parts.scheme.slice(0, -'://'.length).toLowerCase();
  if (scheme === 'https') return undefined;
  if (scheme === 'http')
    return isLoopback(hostOf(parts.rest)) ? undefined : 'http:// would send its credentials in the clear: use https://';
  if (!parts.userinfo.includes(':')) return undefined;
  return (
    `${scheme}:// takes no password from a URL (and it would show on a ` +
    `command line): remove it, and log in with a key (ssh-agent or the ` +
    `qpswatch user's ~/.ssh)`
  );
}

/** The host of "host[:port]/path", without the port; an IPv6 address keeps its brackets. */
function hostOf(rest: string): string {
  const authority = rest.split(/[/?#]/, 1)[0]!;
  return authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:\d*$/, '');
}

function isLoopback(host: string): boolean {
  return host.toLowerCase() === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
