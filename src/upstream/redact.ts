/**
 * Hides the user part of http(s) URLs: people put tokens there (https://TOKEN@github.com/...), and remotes end up
 * in messages and logs. ssh's "git@" is a user name, not a secret, and stays.
 */
export function redactUrls(text: string): string {
  return text.replace(/(https?:\/\/)[^/@\s]+@/gi, '$1***@');
}
