/**
 * Any URL's user part that may hold a secret, as text: an http(s) URL's user part is hidden whole (people put
 * tokens there, as https://TOKEN@host or https://TOKEN:x-oauth-basic@host); other schemes keep the user and hide
 * the password (ssh://user:***@host). ssh's bare `git@` is a user name, not a secret, and stays. Runs on whole log lines and error messages, so the
 * user part stops at what cannot be in it unescaped: "/", whitespace, quotes and angle brackets.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s"'<>@]*(?:@[^/\s"'<>@]*)*)@/gi;

export function redactUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(URL_USERINFO, (_match, scheme: string, userinfo: string) => {
    if (/^https?:\/\/$/i.test(scheme)) return `${scheme}***@`;
    const colon = userinfo.indexOf(':');
    return colon >= 0 ? `${scheme}${userinfo.slice(0, colon)}:***@` : `${scheme}${userinfo}@`;
  });
}
