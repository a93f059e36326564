import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { hasQuerySecret, splitUrl } from '../log/index.js';
import { readTrustedText, UnreadableFileError } from '../trust/index.js';
import { projectRoot } from '../paths.js';
import { closestName } from './closest-name.js';
import { describeIssues, showValue } from './describe-issues.js';
import { ConfigError } from './errors.js';
import { kindOfValue, parseYamlText } from './yaml-text.js';
import { hostname } from 'node:os';
import { envName, type DefaultContext, type OptionSpec } from './option.js';
import { OPTIONS, type Config } from './options.js';
import { isServiceConfig, servicePaths } from './service-paths.js';

export interface LoadConfigInput {
  /** A YAML file; without one qpswatch runs on defaults and the environment. */
  file?: string;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** From the command line: the last layer, over file and environment. */
  overrides?: Partial<Config>;
  /** The machine's host name, the default of host_name; os.hostname() when not given. */
  hostName?: string;
  /**
   * Given by `config check`, which reports every problem in one run: each problem is added here instead of thrown,
   * and the option it concerns keeps its default, so the checks that follow still run.
   */
  problems?: string[];
}

type AnyOption = OptionSpec<unknown>;
type OptionTable = Readonly<Record<string, AnyOption>>;

/** Options whose values are paths: relative ones are read from the config file's folder, not from the cwd. */
const PATH_OPTIONS = new Set([
  'state_dir',
  'suites_dir',
  'server_profiles_dir',
  'build_profiles_dir',
  'cache_dir',
  'store_socket',
  'store_tls_ca',
]);

/** Layers, weakest first: defaults < file < environment < command line. */
export function loadConfig(input: LoadConfigInput, table: OptionTable = OPTIONS): Config {
  const ctx: DefaultContext = { env: input.env, cwd: input.cwd, projectRoot, hostName: input.hostName ?? hostname() };
  if (isServiceConfig(input.file, input.cwd, input.env)) ctx.service = servicePaths(input.env);
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) values[name] = spec.default(ctx);

  const fromFile = input.file === undefined ? EMPTY_FILE : readFileLayer(input.file, table, problems);
  const fromEnv = readEnvironment(input.env, table, problems, input.cwd);
  Object.assign(values, fromFile.values, fromEnv, input.overrides ?? {});
  Object.assign(values, readSecrets(input, table, fromFile.secretFiles, problems));
  problems.push(...nulInPaths(values));
  if (problems.length > 0 && input.problems === undefined) throw new ConfigError(problems);
  input.problems?.push(...problems);
  return values as Config;
}

/** The file's layer; a file that is no YAML map is one set of problems, and an empty layer. */
function readFileLayer(file: string, table: OptionTable, problems: string[]): FileLayer {
  try {
    return readConfigFile(file, table, problems);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
    return EMPTY_FILE;
  }
}

interface FileLayer {
  values: Record<string, unknown>;
  /** `<secret>_file` keys: paths of files holding a secret, resolved from the config file's folder. */
  secretFiles: Record<string, string>;
}

const EMPTY_FILE: FileLayer = { values: {}, secretFiles: {} };

/** The largest config or secret file read: a config is a few KB; anything this large is the wrong file. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const MAX_SECRET_BYTES = 64 * 1024;

/** A path with a NUL byte can name no file: said once, in one line, instead of failing deep in a system call. */
function nulInPaths(values: Record<string, unknown>): string[] {
  return [...PATH_OPTIONS, 'host_lock', 'outbox_dir']
    .filter((name) => typeof values[name] === 'string' && (values[name] as string).includes('\0'))
    .map(
      (name) =>
        `${name} = ${showValue(values[name])} holds a NUL byte, which no path may hold: ` +
        `fix ${name} (${envName(name)} or the config file)`,
    );
}

function readConfigFile(file: string, table: OptionTable, problems: string[]): FileLayer {
  const raw = parseYamlFile(file);
  const layer: FileLayer = { values: {}, secretFiles: {} };
  const base = dirname(resolve(file));
  for (const [key, value] of Object.entries(raw)) {
    const spec = table[key];
    const secretName = key.endsWith('_file') ? key.slice(0, -'_file'.length) : undefined;
    if (secretName !== undefined && table[secretName]?.secret === true) {
      if (typeof value === 'string' && value !== '') layer.secretFiles[secretName] = resolve(base, value);
      else problems.push(`${file}: ${key} = ${showValue(value)}: expected the path of a file holding the secret`);
    } else if (spec === undefined) {
      problems.push(unknownKeyProblem(file, key, table));
    } else if (spec.secret === true) {
      problems.push(
        `${file}: ${key} is a secret and is never read from the config file: set ${envName(key)} or ${key}_file`,
      );
    } else {
      const parsed = spec.schema.safeParse(value);
      if (parsed.success) layer.values[key] = resolvePathOption(key, parsed.data, base);
      else problems.push(...describeIssues(file, key, value, parsed.error.issues, spec.expected));
    }
  }
  if (Array.isArray(layer.values['upstreams'])) problems.push(...exposedCredentials(file, layer.values['upstreams']));
  return layer;
}

/**
 * A remote or index URL with a token in a config file that every local user may read is refused: the token would
 * be theirs too. install.sh writes the service's config 0644, for operators to read; one that holds a token is
 * made 0640 root:qpswatch by hand (the service reads it through its group), or the upstreams go to
 * QPSWATCH_UPSTREAMS in the root-only environment file instead (docs/operating.md).
 */
function exposedCredentials(file: string, upstreams: readonly unknown[]): string[] {
  const mode = statSync(file).mode;
  if ((mode & 0o004) === 0) return [];
  const problems: string[] = [];
  for (const [i, upstream] of upstreams.entries()) {
    const entry = upstream as Record<string, unknown>;
    for (const key of ['remote', 'index']) {
      const url = entry[key];
      if (typeof url !== 'string' || !(holdsSecret(url) || hasQuerySecret(url))) continue;
      const name = typeof entry['name'] === 'string' ? ` ${JSON.stringify(entry['name'])}` : '';
      problems.push(
        `${file}: upstreams[${i}]${name}: ${key} = ${showValue(url)} holds ` +
          `credentials, and the file is readable by every user (mode ` +
          `${(mode & 0o777).toString(8).padStart(4, '0')}): ` +
          (`make it private (chown root:qpswatch, chmod 0640), or move the ` +
            `upstreams to QPSWATCH_UPSTREAMS (JSON) in the service's root-only ` +
            `environment file`),
      );
    }
  }
  return problems;
}

/** A URL's user part that is a secret: all of it for http(s) (a token may be the user name), a password elsewhere. */
function holdsSecret(url: string): boolean {
  const parts = splitUrl(url);
  if (parts === undefined || parts.userinfo === '') return false;
  return /^https?:\/\/$/i.test(parts.scheme) || parts.userinfo.includes(':');
}

function parseYamlFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    // The config names the programs, profiles and scripts root runs: another user's, or one they may write, is refused.
    text = readTrustedText(file, {
      what: 'config file',
      elsewhere: 'name another config file (--config, QPSWATCH_CONFIG)',
      maxBytes: MAX_CONFIG_BYTES,
    });
  } catch (err) {
    if (!(err instanceof UnreadableFileError)) throw new ConfigError([(err as Error).message]);
    throw new ConfigError([
      `config file ${file} cannot be read (${err.code}): check the ` + `path given to --config or QPSWATCH_CONFIG`,
    ]);
  }
  // Never the file's own lines in a message: it may be any file (an env file with a password, /etc/passwd).
  const parsed = parseYamlText(text);
  if (!parsed.ok) throw new ConfigError(parsed.problems.map((p) => `config file ${file}: ${p}`));
  const raw = parsed.value;
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError([
      `config file ${file}: line ${parsed.line}: the top level must be a map ` +
        `of option: value (e.g. "state_dir: /var/lib/qpswatch"), found ` +
        `${kindOfValue(raw)}`,
    ]);
  }
  return raw as Record<string, unknown>;
}

function unknownKeyProblem(source: string, key: string, table: OptionTable): string {
  // A key that is no option name at all (a line of some other file) is not quoted back.
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key))
    return (
      `${source}: a key that is not an option name (${key.length} ` +
      `characters): see \`qpswatch config options\` for the valid ones`
    );
  const guess = closestName(key, Object.keys(table));
  const hint = guess !== undefined ? `did you mean '${guess}'?` : 'see `qpswatch config options` for the valid ones';
  return `${source}: unknown option '${key}': ${hint}`;
}

function resolvePathOption(name: string, value: unknown, base: string): unknown {
  const relativePath = typeof value === 'string' && value !== '' && !isAbsolute(value);
  return PATH_OPTIONS.has(name) && relativePath ? resolve(base, value) : value;
}

/** QPSWATCH_* variables; a relative path among them is read from the working folder, as on a command line. */
function readEnvironment(
  env: LoadConfigInput['env'],
  table: OptionTable,
  problems: string[],
  cwd: string,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const variable = envName(name);
    const text = env[variable];
    if (text === undefined || spec.secret === true) continue;
    const converted = fromEnvText(text, spec.envFormat);
    const parsed = spec.schema.safeParse(converted);
    if (parsed.success) values[name] = resolvePathOption(name, parsed.data, cwd);
    else problems.push(`environment ${variable} = ${showValue(text)}: expected ${spec.expected}`);
  }
  return values;
}

function fromEnvText(text: string, format: AnyOption['envFormat']): unknown {
  switch (format) {
    case 'text':
      return text;
    case 'number':
      return text.trim() === '' ? Number.NaN : Number(text);
    case 'boolean':
      return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
  }
}

/**
 * A secret comes from its environment variable, else from the file that `<name>_file` names (environment, then YAML).
 */
function readSecrets(
  input: LoadConfigInput,
  table: OptionTable,
  secretFiles: Record<string, string>,
  problems: string[],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (spec.secret !== true) continue;
    const direct = input.env[envName(name)];
    const fileFromEnv = input.env[envName(`${name}_file`)];
    const file = fileFromEnv !== undefined ? resolve(input.cwd, fileFromEnv) : secretFiles[name];
    if (direct !== undefined) values[name] = direct;
    else if (file !== undefined) values[name] = readSecretFile(name, file, problems);
  }
  return values;
}

function readSecretFile(name: string, file: string, problems: string[]): string | undefined {
  try {
    // A secret file other users may read or write is refused: the secret would be theirs, or chosen by them.
    const text = readTrustedText(file, {
      what: `${name}_file`,
      elsewhere: `point ${name}_file at a file of root's`,
      secret: true,
      maxBytes: MAX_SECRET_BYTES,
    });
    return text.replace(/\r?\n$/, '');
  } catch (err) {
    if (!(err instanceof UnreadableFileError)) {
      problems.push((err as Error).message);
      return undefined;
    }
    problems.push(
      `${name}_file = ${showValue(file)}: cannot be read ` +
        `(${err.code}): point it at a ` +
        `readable file holding only the secret`,
    );
    return undefined;
  }
}
