import { redactUrl, redactUrlCredentials } from '../log/index.js';

/**
 * Hides the secret of a URL's user part (https://TOKEN@..., https://user:token@..., ssh://user:password@...) in
 * text that names a remote: error messages and their fields. Log lines get the same treatment from the logger
 * itself; ssh's "git@" is a user name, not a secret, and stays.
 */
export function redactUrls(text: string): string {
  return redactUrlCredentials(text);
}

/**
 * `text` with every mention of `remote` shown with its user part hidden, found by parsing the URL (so a password
 * holding a quote is hidden whole), then any other URL's user part as redactUrls does.
 */
export function redactRemoteIn(text: string, remote: string): string {
  return redactUrls(text.replaceAll(remote, redactUrl(remote)));
}
