export { FolderNotMadeError, UnfitFileError, UnreadableFileError, UntrustedPathError } from './errors.js';
export { modeText, ownerText, trustedOwners } from './owners.js';
export {
  ancestors,
  checkTrustedFile,
  checkTrustedFolder,
  ensureTrustedFolder,
  kindOf,
  type FileSubject,
  type FolderOptions,
  type TrustSubject,
} from './trusted-path.js';
export { decodeText, readTextFile, readTrustedText, type ReadLimits } from './read-file.js';
export { writeFileSafely } from './safe-write.js';
