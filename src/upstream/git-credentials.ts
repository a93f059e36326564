import { join } from 'node:path';
import { splitUrl } from '../log/index.js';
import { projectRoot } from '../paths.js';

/** A remote as git is given it: its URL without a user part, and what lets git still log in with that user part. */
export interface GitRemote {
  /** The URL git sees on its command line and keeps in a mirror's config: never with credentials. */
  readonly url: string;
  /** git -c options that name the credential helper (no secret in them); [] for a remote without credentials. */
  readonly configArgs: readonly string[];
  /** The environment the helper reads the credentials from; {} for a remote without credentials. */
  readonly env: Readonly<Record<string, string>>;
}

// A program of its own beside qpswatch's entry point: git runs it, with the environment below.
const HELPER = join(projectRoot, 'bin', 'git-credential-helper.js');

/**
 * How git gets an http(s) remote's user part without anybody else seeing it. Neither git's argv (which `ps` shows
 * every local user) nor the mirror's config holds it: git is given the bare URL, and a credential helper of ours
 * that answers with the user name and password from its environment (which only the same user and root may read,
 * /proc/PID/environ). The helper is set after an empty `credential.helper`, so no helper of the host's git config
 * is asked, and it answers only for the remote's own protocol and host, so a redirect elsewhere gets nothing. The
 * helper's command line is a shell snippet naming environment variables, never a path or a value: git runs it
 * through sh.
 */
export function gitRemote(remote: string, nodePath: string = process.execPath): GitRemote {
  const parts = splitUrl(remote);
  if (parts === undefined || parts.userinfo === '' || !/^https?:\/\/$/i.test(parts.scheme))
    return { url: remote, configArgs: [], env: {} };
  const colon = parts.userinfo.indexOf(':');
  const username = decoded(colon < 0 ? parts.userinfo : parts.userinfo.slice(0, colon));
  const password = colon < 0 ? '' : decoded(parts.userinfo.slice(colon + 1));
  const end = parts.rest.search(/[/?#]/);
  return {
    url: `${parts.scheme}${parts.rest}`,
    configArgs: [
      '-c',
      'credential.helper=',
      '-c',
      'credential.helper=!"$QPSWATCH_NODE" "$QPSWATCH_GIT_CREDENTIAL_HELPER"',
    ],
    env: {
      QPSWATCH_NODE: nodePath,
      QPSWATCH_GIT_CREDENTIAL_HELPER: HELPER,
      QPSWATCH_GIT_PROTOCOL: parts.scheme.slice(0, -3).toLowerCase(),
      QPSWATCH_GIT_HOST: end < 0 ? parts.rest : parts.rest.slice(0, end),
      QPSWATCH_GIT_USERNAME: username,
      QPSWATCH_GIT_PASSWORD: password,
    },
  };
}

/** git decodes %XX in a URL's user part; the helper hands over what git would have read. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
