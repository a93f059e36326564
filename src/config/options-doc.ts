import { envName, type OptionSpec } from './option.js';
import { OPTIONS } from './options.js';

function defaultText(option: OptionSpec<unknown>): string {
  if (option.defaultDoc !== undefined) return option.defaultDoc;
  if (option.secret === true) return '(none)';
  return JSON.stringify(option.default({ env: {}, cwd: '.', projectRoot: '.', hostName: 'localhost' }));
}

const options = (): OptionSpec<unknown>[] => Object.values(OPTIONS) as OptionSpec<unknown>[];

/** The groups `config options` lists the options in, in the order of a first config: each option in one. */
export const OPTION_GROUPS: readonly { title: string; names: readonly string[] }[] = [
  {
    title: 'Folders and logs',
    names: [
      'state_dir',
      'cache_dir',
      'datadir_cache',
      'suites_dir',
      'server_profiles_dir',
      'build_profiles_dir',
      'outbox_dir',
      'host_lock',
      'min_free_bytes',
      'log_level',
      'log_format',
    ],
  },
  {
    title: 'Sessions and verdicts',
    names: [
      'suite',
      'design',
      'budget_minutes',
      'max_pairs',
      'instance_seconds',
      'instance_warmup_seconds',
      'rounds',
      'run_grace_seconds',
      'threshold',
      'test_thresholds',
      'alpha',
      'confidence',
      'memory',
      'io_bound_buffer_pool',
      'idle_server',
      'idle_settle_max_seconds',
      'idle_window_ms',
      'hold_idle_states',
      'reanchor_every',
      'profiling',
      'profile_seconds',
    ],
  },
  {
    title: 'The instructions lane',
    names: [
      'instruction_counter',
      'instructions_threshold',
      'instructions_test_thresholds',
      'instructions_events',
      'instructions_warmup_events',
      'instructions_repeats',
    ],
  },
  {
    title: 'Servers and targets',
    names: [
      'targets',
      'calibrate_target',
      'server_user',
      'server_port',
      'server_start_timeout_seconds',
      'server_stop_timeout_seconds',
    ],
  },
  {
    title: 'Releases and builds',
    names: ['upstreams', 'install_build_packages', 'keep_builds', 'bisect', 'bisect_max_builds', 'bisect_max_hours'],
  },
  {
    title: 'The daemon',
    names: [
      'schedule',
      'schedule_timezone',
      'retry_attempts',
      'retry_backoff_minutes',
      'quiet_max_busy_percent',
      'quiet_min_available_bytes',
      'quiet_max_swap_pages_per_second',
      'quiet_governors',
      'quiet_window_seconds',
      'quiet_max_wait_seconds',
    ],
  },
  {
    title: 'Email',
    names: [
      'email_to',
      'email_from',
      'smtp_host',
      'smtp_port',
      'smtp_secure',
      'smtp_user',
      'smtp_password',
      'smtp_allow_plaintext_auth',
      'smtp_timeout_seconds',
      'grafana_url',
    ],
  },
  { title: 'Metrics', names: ['metrics_host', 'metrics_port', 'metrics_versions_per_series'] },
  {
    title: 'The store',
    names: [
      'store_backend',
      'store_url',
      'store_host',
      'store_port',
      'store_socket',
      'store_user',
      'store_password',
      'store_database',
      'store_tls',
      'store_tls_ca',
    ],
  },
  { title: 'A fleet of hosts', names: ['host_name', 'benchmark_once_per', 'claim_seconds', 'fingerprint_test_mark'] },
];

/** Defaults longer than this are cut in the terminal's list (a whole default target map helps nobody there). */
const MAX_DEFAULT_CHARS = 160;

/**
 * The option table for a terminal (`qpswatch config options`): grouped, each option's name and variable on one
 * line, its meaning, type and default below, wrapped at `columns`.
 */
export function optionsAsText(columns = 100): string {
  const width = Math.max(40, columns - 1);
  const byName = new Map(options().map((o) => [o.name, o]));
  const grouped = new Set(OPTION_GROUPS.flatMap((g) => g.names));
  const groups = [
    ...OPTION_GROUPS,
    {
      title: 'Other',
      names: options()
        .map((o) => o.name)
        .filter((n) => !grouped.has(n)),
    },
  ];
  const out: string[] = [];
  for (const group of groups) {
    const shown = group.names.map((n) => byName.get(n)).filter((o) => o !== undefined);
    if (shown.length === 0) continue;
    out.push(`${group.title}\n`);
    for (const o of shown) {
      const shownDefault = defaultText(o);
      const cut =
        shownDefault.length > MAX_DEFAULT_CHARS ? `${shownDefault.slice(0, MAX_DEFAULT_CHARS)}...` : shownDefault;
      const head = `  ${o.name}  ${envName(o.name)}${o.secret === true ? '  (secret)' : ''}`;
      out.push(head.length <= width ? `${head}\n` : `  ${o.name}\n${wrapText(envName(o.name), width, '      ')}`);
      out.push(wrapText(o.doc, width, '      '));
      out.push(wrapText(`expects ${o.expected}; default ${cut}`, width, '      '));
    }
    out.push('\n');
  }
  const footer = 'Each option is also set by its QPSWATCH_ variable; docs/configuration.md has this table.';
  return `${out.join('').trimEnd()}\n\n${wrapText(footer, width, '')}`;
}

/** Words joined into lines of at most `width` characters, each started by `indent`; a longer word stands alone. */
export function wrapText(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => `${indent}${l}\n`).join('');
}

/** The option table as docs/configuration.md shows it; a unit test keeps that file equal to this. */
export function optionsAsMarkdown(): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const rows = options().map(
    (o) =>
      `| \`${o.name}\` | \`${envName(o.name)}\` | ${cell(o.expected)} | ${cell(defaultText(o))} | ${cell(o.doc)} |`,
  );
  return (
    ['| option | environment | expects | default | meaning |', '| --- | --- | --- | --- | --- |', ...rows].join('\n') +
    '\n'
  );
}
