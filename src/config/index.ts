export { loadConfig, type LoadConfigInput } from './load.js';
export { findConfigFile, servicePaths, SERVICE_CONFIG, type ServicePaths } from './service-paths.js';
export { ConfigError } from './errors.js';
export { envName, type OptionSpec, type DefaultContext } from './option.js';
export {
  LOG_LEVELS,
  OPTIONS,
  OPTION_NAMES,
  type Config,
  type OptionName,
  type TargetConfig,
  type InstalledTargetConfig,
  type TarballTargetConfig,
} from './options.js';
export { describeIssues, showValue, valueAt } from './describe-issues.js';
export { OPTION_GROUPS, optionsAsMarkdown, optionsAsText, wrapText } from './options-doc.js';
export { listNamedFiles, loadNamedProfile, readNamedFile, type NamedFileProblem } from './named-file.js';
export { ProfileError } from './profile-error.js';
export { formatPath, parseYamlFile, type YamlProblem } from './yaml-file.js';
export { kindOfValue, parseYamlText, type YamlText } from './yaml-text.js';
export { closestName } from './closest-name.js';
export { parseStoreUrl, type StoreUrl } from './store-url.js';
export { unknownEnvironmentVariables } from './unknown-environment.js';
