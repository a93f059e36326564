export { loadServerProfile, parseServerProfile, listServerProfiles, shippedProfileDir } from './profile.js';
export type { ServerProfile, ProfileOverride, SettingValue, Settings } from './profile.js';
export { resolveSettings, overrideApplies, type ServerTarget } from './resolve.js';
export { renderMyCnf } from './my-cnf.js';
export {
  serverPaths,
  checkSocketPath,
  prepareServerDirs,
  privateDir,
  checkCacheDir,
  chownTree,
  type PrivateDirOptions,
  assertReachable,
  UNIX_SOCKET_PATH_MAX,
  PRIVATE_DIR_MODE,
  SOCKET_DIR_MODE,
  type ServerPaths,
  type ServerNetwork,
} from './paths.js';
export { serverAccount, findAccount, DEFAULT_SERVER_USER, type ServerAccount } from './user.js';
export { ServerCredential } from './credential.js';
export { lockDownStatements, type AccountStatement, type AccountRow } from './accounts.js';
export { resolveServerBinaries, serverVersion, parseServerVersionOutput, usesInstallDb } from './binaries.js';
export type { ServerBinaries, ServerVersionInfo } from './binaries.js';
export { initDatadir, initDatadirArgv, type InitDatadirArgs, type InitDatadirOptions } from './init.js';
export { checkServerOptions, type ServerOptionsCheck } from './options-check.js';
export { startServer, serverArgv, type StartServerOptions } from './start.js';
export type { RunningServer, ServerExit } from './running.js';
export type { Connection } from './connection.js';
export {
  ServerProfileError,
  ServerBinaryMissingError,
  ServerVersionError,
  SocketPathTooLongError,
  SocketInUseError,
  PortInUseError,
  ServerStartError,
  ServerOptionsError,
  DatadirInitError,
  DatadirNotEmptyError,
  ServerDiedError,
  ServerUserError,
  UnsafeFolderError,
  ServerCredentialError,
} from './errors.js';
export { serverDeath } from './death.js';
export { expectedServerBytes, profilePoolBytes, SERVER_OVERHEAD_BYTES } from './memory-need.js';
export { cleanUpKilledSessions, stopStrayProcesses, type StrayProcess, type StrayScope } from './stray-processes.js';
