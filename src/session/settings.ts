import type { VerdictSettings } from '../analysis/index.js';
import type { Config, TargetConfig } from '../config/index.js';
import { idleHoldSetting, type IdleHoldSetting } from '../sampling/index.js';
import type { ServerTimeouts } from './target-instance.js';
import type { InstructionLaneSettings } from './instruction-lane.js';

/** What a comparison session reads of the config; the CLI builds it once (compareSettings). */
export interface CompareSettings {
  /** state_dir: sessions work under work/, servers listen on sockets under run/; calibrations are found from it. */
  stateDir: string;
  /** The config's targets: (a built release's tag is a target too). */
  targets: Readonly<Record<string, TargetConfig>>;
  serverProfilesDir: string;
  /** cache_dir: tarball targets are unpacked under tarballs/ in it, and loaded datadirs kept under datadirs/. */
  cacheDir: string;
  /** datadir_cache: how many loaded datadirs are kept (0: none). */
  datadirCache: number;
  /** min_free_bytes: a loaded datadir is not kept when its copy would leave less free. */
  minFreeBytes: number;
  holdIdleStates: boolean;
  /** Who runs the session (root, the service, a person): the warning of a hold that failed names its fix. */
  idleHoldSetting: IdleHoldSetting;
  /** The design of a session that names none. */
  design: Config['design'];
  /** Paired design: minutes of pairs; undefined leaves it to the suite. */
  budgetMinutes: number | undefined;
  maxPairs: number;
  /** Paired design: seconds of runs per pair of server instances (instance_seconds). */
  instanceSeconds: number;
  /** Paired design: the warm-up of each restarted server (instance_warmup_seconds); undefined: the default, 1 s. */
  instanceWarmupSeconds?: number;
  idleServer: Config['idle_server'];
  /** Drain: the longest wait for the idle server to settle before each measurement. */
  idleSettleMaxSeconds: number;
  /** Drain: the window the idle server must stay quiet over (idle_window_ms). */
  idleWindowMs: number;
  /** A measured run's time past its test's seconds before it counts as hung (run_grace_seconds). */
  runGraceSeconds: number;
  verdicts: VerdictSettings;
  /** mysqld's --user; undefined leaves it to the server's default. */
  serverUser: string | undefined;
  /** 0: no TCP port; a paired session gives the candidate the next one. */
  serverPort: number;
  serverTimeouts: ServerTimeouts;
  /** The memory settings a compare runs under when its command line names none ([]: the profiles as they are). */
  memory: Config['memory'];
  /** io-bound: the buffer pool the setting gives each server (io_bound_buffer_pool). */
  ioBoundBufferPool: string;
  /** host_name: the session names the host that ran it, so a fleet's hosts recover only their own. */
  runner: string;
  /** fingerprint_test_mark ('' on a real host). */
  fingerprintTestMark: string;
  /** The instructions lane of compare and check sessions (instruction_counter, instructions_*). */
  instructions: InstructionLaneSettings;
}

/** env: the process's environment, which tells the service (systemd's INVOCATION_ID) from a person's shell. */
export function compareSettings(
  config: Config,
  env: Readonly<Record<string, string | undefined>> = {},
): CompareSettings {
  return {
    stateDir: config.state_dir,
    targets: config.targets,
    serverProfilesDir: config.server_profiles_dir,
    cacheDir: config.cache_dir,
    datadirCache: config.datadir_cache,
    minFreeBytes: config.min_free_bytes,
    holdIdleStates: config.hold_idle_states,
    idleHoldSetting: idleHoldSetting(env),
    design: config.design,
    budgetMinutes: config.budget_minutes,
    maxPairs: config.max_pairs,
    instanceSeconds: config.instance_seconds,
    instanceWarmupSeconds: config.instance_warmup_seconds,
    idleServer: config.idle_server,
    idleSettleMaxSeconds: config.idle_settle_max_seconds,
    idleWindowMs: config.idle_window_ms,
    runGraceSeconds: config.run_grace_seconds,
    verdicts: {
      threshold: config.threshold,
      testThresholds: config.test_thresholds,
      alpha: config.alpha,
      confidence: config.confidence,
    },
    serverUser: config.server_user === '' ? undefined : config.server_user,
    serverPort: config.server_port,
    serverTimeouts: {
      readyMs: config.server_start_timeout_seconds * 1000,
      stopMs: config.server_stop_timeout_seconds * 1000,
    },
    memory: config.memory,
    ioBoundBufferPool: config.io_bound_buffer_pool,
    runner: config.host_name,
    fingerprintTestMark: config.fingerprint_test_mark,
    instructions: {
      counter: config.instruction_counter,
      repeats: config.instructions_repeats,
      events: config.instructions_events,
      warmupEvents: config.instructions_warmup_events,
      verdicts: { threshold: config.instructions_threshold, testThresholds: config.instructions_test_thresholds },
    },
  };
}
