/** A URL split at its user part: `scheme://` + `userinfo@` + the rest (host, path). */
export interface UrlParts {
  readonly scheme: string;
  /** What sat before the "@", as written (maybe percent-encoded); '' when the URL has none. */
  readonly userinfo: string;
  readonly rest: string;
}

/**
 * A URL's parts as git and WHATWG find the authority: the user part runs to the last "@" before the first "/", "?"
 * or "#" after "scheme://", so "https://u:p@ss@host/x" has the user part "u:p@ss". Any character may sit in it
 * (a quote, a backslash, a space): nothing is guessed from its contents. undefined: no "scheme://" at the start.
 */
export function splitUrl(url: string): UrlParts | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
  if (scheme === undefined) return undefined;
  const after = url.slice(scheme.length);
  const end = after.search(/[/?#]/);
  const authority = end < 0 ? after : after.slice(0, end);
  const at = authority.lastIndexOf('@');
  if (at < 0) return { scheme, userinfo: '', rest: after };
  return { scheme, userinfo: authority.slice(0, at), rest: after.slice(at + 1) };
}

/**
 * The URL with no user part at all, and the value of a credential-named query parameter hidden (`?token=***`): what
 * git, a log or an install record may keep. Other text is returned as it is.
 */
export function urlWithoutCredentials(url: string): string {
  const parts = splitUrl(url);
  if (parts === undefined) return url;
  return `${parts.scheme}${redactQuerySecrets(parts.rest)}`;
}

/**
 * One URL as it may be shown: see redactUrlCredentials for what is hidden. Found by the parser above, never by a
 * pattern.
 */
export function redactUrl(url: string): string {
  const parts = splitUrl(url);
  if (parts === undefined) return url;
  const rest = redactQuerySecrets(parts.rest);
  if (parts.userinfo === '') return `${parts.scheme}${rest}`;
  return `${parts.scheme}${hiddenUserinfo(parts.scheme, parts.userinfo)}@${rest}`;
}

/**
 * Query parameters that carry a credential by their name (`?token=`, `access_token`, `api_key`, `password`, a signed
 * URL's `signature`): their values are hidden as the user part is. Matched by name, whatever the URL.
 */
const SECRET_NAMES = 'token|key|apikey|password|passwd|pwd|secret|signature|sig|credential|auth|authorization|session';
const QUERY_SECRET = new RegExp(`([?&;](?:[a-z0-9_.-]*[_.-])?(?:${SECRET_NAMES})=)[^&#;\\s"'<>]*`, 'gi');

/** The text with the value of every credential-named query parameter hidden (`?token=***`). */
export function redactQuerySecrets(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(QUERY_SECRET, '$1***');
}

/** Whether a URL carries a credential in its query (see QUERY_SECRET). */
export function hasQuerySecret(url: string): boolean {
  return redactQuerySecrets(url) !== url;
}

function hiddenUserinfo(scheme: string, userinfo: string): string {
  if (/^https?:\/\/$/i.test(scheme)) return '***';
  const colon = userinfo.indexOf(':');
  return colon >= 0 ? `${userinfo.slice(0, colon)}:***` : userinfo;
}

/**
 * The user parts of the URLs the config names (remotes, indexes), in every form they are written in: as given, as
 * JSON writes them (a quote becomes \"), and as a URL parser writes them (a quote becomes %22). Found by value, they
 * are hidden whatever characters they hold, where the pattern below must stop at a quote.
 */
const knownUserinfos = new Set<string>();

/** Makes every later redaction hide this URL's user part by value, in any text. A URL without one adds nothing. */
export function addUrlForRedaction(url: string): void {
  const parts = splitUrl(url);
  if (parts === undefined || parts.userinfo === '') return;
  // ssh's "git@" is a user name, not a secret.
  if (!/^https?:\/\/$/i.test(parts.scheme) && !parts.userinfo.includes(':')) return;
  const forms = [parts.userinfo, JSON.stringify(parts.userinfo).slice(1, -1)];
  try {
    const parsed = new URL(url);
    forms.push(parsed.password === '' ? parsed.username : `${parsed.username}:${parsed.password}`);
  } catch {
    // Not a URL the parser takes (an ssh:// one may not be): the written forms are enough.
  }
  for (const form of forms) if (form !== '') knownUserinfos.add(form);
}

/**
 * Any URL's user part that may hold a secret, as text: an http(s) URL's user part is hidden whole (people put
 * tokens there, as https://TOKEN@host or https://TOKEN:x-oauth-basic@host); other schemes keep the user and hide
 * the password (ssh://user:***@host). ssh's bare `git@` is a user name, not a secret, and stays. Runs on whole log
 * lines and error messages. The user parts of the config's URLs (addUrlForRedaction) are hidden by value first; for
 * any other URL the user part is read up to what cannot be in it unescaped in such text: "/", whitespace, a bare
 * double quote (a JSON string's end) and angle brackets. A JSON escape (\") and a single quote may sit in it.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)((?:[^/\s"<>@\\]|\\.)*(?:@(?:[^/\s"<>@\\]|\\.)*)*)@/gi;

export function redactUrlCredentials(text: string): string {
  text = redactQuerySecrets(text);
  if (!text.includes('@')) return text;
  let known = text;
  for (const userinfo of knownUserinfos) known = known.replaceAll(`://${userinfo}@`, '://***@');
  return known.replace(
    URL_USERINFO,
    (_match, scheme: string, userinfo: string) => `${scheme}${hiddenUserinfo(scheme, userinfo)}@`,
  );
}
