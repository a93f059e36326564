import { trustedLockOwners, userName } from '../exec/index.js';

/**
 * The users whose folders and files qpswatch uses as its own: root, this process's user and the service account
 * qpswatch. Anything one of them could not stop another user from changing is not trusted: what root builds, runs or
 * reads as a secret is only as safe as the least trusted owner on its way.
 */
export function trustedOwners(): ReadonlySet<number> {
  return trustedLockOwners();
}

/** "user nobody (uid 65534)", or "uid 1234" for a uid /etc/passwd does not name. */
export function ownerText(uid: number): string {
  const name = userName(uid);
  return name === undefined ? `uid ${uid}` : `user ${name} (uid ${uid})`;
}

/** "0755" */
export function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}
