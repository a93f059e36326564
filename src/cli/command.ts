import type { Logger } from '../log/index.js';
import type { Config } from '../config/index.js';
import type { Upstream } from '../upstream/index.js';

/** What every command gets: the loaded config, a logger, and where to write its output. */
export interface CommandContext {
  config: Config;
  configFile: string | undefined;
  /** config.upstreams, each parsed by the upstream room's schema at start-up. */
  upstreams: Upstream[];
  log: Logger;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: (text: string) => void;
  /** Set by SIGINT/SIGTERM, so long work stops by escalation and records itself as interrupted. */
  signal: AbortSignal;
}

export interface Command {
  name: string;
  summary: string;
  help: string;
  /** Commands that only read a file (config check) load no config of their own. */
  needsConfig: boolean;
  run(args: string[], ctx: CommandContext): Promise<number>;
}
