import { latestVersion as sqliteLatestVersion } from '../sqlite/migrations.js';
import { WRITE_LOCK_TABLE } from './connection.js';

/**
 * The MySQL / MariaDB schema. It starts where the SQLite store stands (one baseline migration equal to SQLite's
 * latest schema, numbered like it); a later change gets the same number on both backends.
 *
 * A row copies between backends unchanged: timestamps stay ISO-8601 text (VARCHAR(32)), JSON stays text (LONGTEXT),
 * integers are BIGINT and SQLite's REAL is DOUBLE. Every table is InnoDB, ROW_FORMAT=DYNAMIC, utf8mb4 with the
 * binary collation utf8mb4_bin: SQLite compares text byte for byte, and MySQL's default collation would make tags,
 * tests and upstreams case-insensitive (and sort them differently). One difference stays: utf8mb4_bin pads, so
 * 'x' and 'x ' compare equal in a key.
 *
 * Text in a key or an index is VARCHAR, sized to fit InnoDB's 3072-byte key limit at 4 bytes a character. MySQL
 * has no partial index, so regression_events.one_open (1 while the event is open, else NULL, which a unique key
 * does not compare) keeps SQLite's "one open event per test" index; verdicts.seq keeps their insertion order,
 * which SQLite read from rowid. Both are extra columns a copy between backends leaves out: insert with named
 * columns only.
 *
 * MySQL's DDL commits on its own, so a migration is a list of steps that are each safe to run again (CREATE TABLE
 * IF NOT EXISTS, INSERT IGNORE; an ADD COLUMN that finds its column there is taken as done); migrate.ts runs them
 * under a named lock and writes the version after the last.
 */
export interface MysqlMigration {
  version: number;
  name: string;
  steps: readonly string[];
}

/** The SQLite version the baseline stands for; later migrations are numbered as SQLite's of the same change. */
const BASELINE_VERSION = 18;

const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ROW_FORMAT=DYNAMIC';

/** Statements of the baseline, each `CREATE TABLE IF NOT EXISTS name (body) options`, in foreign-key order. */
const table = (name: string, body: string): string =>
  `CREATE TABLE IF NOT EXISTS ${name} (${body.trim()}\n) ${TABLE_OPTIONS}`;

const TS = 'VARCHAR(32)';
const KEY_TEXT = 'VARCHAR(255)';
/** A JSON array default: MySQL allows a default on a TEXT column only as an expression. */
const EMPTY_ARRAY = "DEFAULT ('[]')";

const hostsAndSessions = [
  table(
    'hosts',
    `
  id              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  fingerprint_id  ${KEY_TEXT} NOT NULL,
  fingerprint     LONGTEXT NOT NULL,
  first_seen_at   ${TS} NOT NULL,
  last_seen_at    ${TS} NOT NULL,
  UNIQUE KEY hosts_fingerprint_id (fingerprint_id)`,
  ),
  table(
    'sessions',
    `
  id                          BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  kind                        VARCHAR(16) NOT NULL CHECK (kind IN ('compare')),
  host_id                     BIGINT NOT NULL,
  state                       VARCHAR(16) NOT NULL CHECK (state IN ('running', 'done', 'interrupted', 'failed')),
  baseline_name               TEXT NOT NULL,
  baseline_flavor             TEXT NOT NULL,
  baseline_version            TEXT NOT NULL,
  baseline_binary             TEXT NOT NULL,
  baseline_server_profile     TEXT NOT NULL,
  baseline_description        LONGTEXT NOT NULL,
  candidate_name              TEXT NOT NULL,
  candidate_flavor            TEXT NOT NULL,
  candidate_version           TEXT NOT NULL,
  candidate_binary            TEXT NOT NULL,
  candidate_server_profile    TEXT NOT NULL,
  candidate_description       LONGTEXT NOT NULL,
  suite                       TEXT NOT NULL,
  rounds                      BIGINT NOT NULL CHECK (rounds >= 1),
  pid                         BIGINT NOT NULL,
  settings                    LONGTEXT NOT NULL,
  error                       LONGTEXT,
  started_at                  ${TS} NOT NULL,
  ended_at                    ${TS},
  pid_start_ticks             BIGINT,
  KEY sessions_state (state),
  CONSTRAINT sessions_host FOREIGN KEY (host_id) REFERENCES hosts (id)`,
  ),
  table(
    'samples',
    `
  id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  session_id        BIGINT NOT NULL,
  round             BIGINT NOT NULL,
  role              VARCHAR(16) NOT NULL CHECK (role IN ('baseline', 'candidate')),
  target_name       TEXT NOT NULL,
  test              ${KEY_TEXT} NOT NULL,
  threads           BIGINT NOT NULL,
  seconds           DOUBLE NOT NULL,
  qps               DOUBLE NOT NULL CHECK (qps >= 0),
  tps               DOUBLE NOT NULL,
  latency_avg_ms    DOUBLE NOT NULL,
  latency_p95_ms    DOUBLE NOT NULL,
  latency_max_ms    DOUBLE NOT NULL,
  errors            BIGINT NOT NULL,
  reconnects        BIGINT NOT NULL,
  created_at        ${TS} NOT NULL,
  UNIQUE KEY samples_key (session_id, round, role, test, threads),
  CONSTRAINT samples_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  // The per-op figures of the figure table that came later are added on open (figure-columns.ts), as in SQLite.
  table(
    'host_metrics',
    `
  sample_id           BIGINT NOT NULL PRIMARY KEY,
  cpu_per_op          DOUBLE NOT NULL,
  cpu_micros_per_op   DOUBLE NOT NULL,
  cs_per_op           DOUBLE NOT NULL,
  reads_per_op        DOUBLE NOT NULL,
  read_kb_per_op      DOUBLE NOT NULL,
  write_kb_per_op     DOUBLE NOT NULL,
  host_usage          LONGTEXT NOT NULL,
  CONSTRAINT host_metrics_sample FOREIGN KEY (sample_id) REFERENCES samples (id) ON DELETE CASCADE`,
  ),
  table(
    'db_counters',
    `
  sample_id   BIGINT NOT NULL,
  name        ${KEY_TEXT} NOT NULL,
  delta       DOUBLE NOT NULL,
  per_op      DOUBLE NOT NULL,
  PRIMARY KEY (sample_id, name),
  CONSTRAINT db_counters_sample FOREIGN KEY (sample_id) REFERENCES samples (id) ON DELETE CASCADE`,
  ),
];

const releasesAndBuilds = [
  table(
    'releases',
    `
  id              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  upstream        ${KEY_TEXT} NOT NULL,
  flavor          TEXT NOT NULL,
  tag             ${KEY_TEXT} NOT NULL,
  commit_sha      TEXT NOT NULL,
  version         TEXT NOT NULL,
  version_key     ${KEY_TEXT} NOT NULL,
  first_seen_at   ${TS} NOT NULL,
  moved_from      TEXT,
  moved_at        ${TS},
  UNIQUE KEY releases_tag (upstream, tag),
  KEY releases_order (upstream, version_key),
  KEY releases_by_tag (tag)`,
  ),
  table(
    'builds',
    `
  id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  release_id        BIGINT NOT NULL,
  build_key         ${KEY_TEXT} NOT NULL,
  profile           TEXT NOT NULL,
  compiler          TEXT NOT NULL,
  state             VARCHAR(16) NOT NULL CHECK (state IN ('building', 'built', 'failed')),
  install_dir       TEXT NOT NULL,
  log_file          TEXT NOT NULL,
  pid               BIGINT NOT NULL,
  error_lines       LONGTEXT NOT NULL ${EMPTY_ARRAY},
  started_at        ${TS} NOT NULL,
  ended_at          ${TS},
  duration_seconds  DOUBLE,
  UNIQUE KEY builds_key (build_key),
  KEY builds_release (release_id),
  CONSTRAINT builds_release FOREIGN KEY (release_id) REFERENCES releases (id) ON DELETE CASCADE`,
  ),
];

const checksAndEvents = [
  table(
    'checks',
    `
  session_id            BIGINT NOT NULL PRIMARY KEY,
  release_id            BIGINT NOT NULL,
  baseline_release_id   BIGINT NOT NULL,
  outcome               VARCHAR(16) NOT NULL CHECK (outcome IN ('ok', 'regression')),
  invalid               BIGINT NOT NULL DEFAULT 0,
  judged_at             ${TS} NOT NULL,
  conclusive            BIGINT NOT NULL DEFAULT 1,
  KEY checks_release (release_id),
  CONSTRAINT checks_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
  CONSTRAINT checks_release FOREIGN KEY (release_id) REFERENCES releases (id),
  CONSTRAINT checks_baseline FOREIGN KEY (baseline_release_id) REFERENCES releases (id)`,
  ),
  table(
    'verdicts',
    `
  session_id        BIGINT NOT NULL,
  test              ${KEY_TEXT} NOT NULL,
  threads           BIGINT NOT NULL,
  kind              VARCHAR(16) NOT NULL CHECK (kind IN ('ok', 'regression', 'improvement', 'slower', 'unstable')),
  relative_qps      DOUBLE NOT NULL,
  threshold         DOUBLE NOT NULL,
  p_slower          DOUBLE NOT NULL,
  p_faster          DOUBLE NOT NULL,
  baseline_spread   DOUBLE NOT NULL,
  hint              LONGTEXT NOT NULL,
  low               DOUBLE,
  high              DOUBLE,
  confidence        DOUBLE,
  detectable_drop   DOUBLE,
  pairs             BIGINT,
  noise             DOUBLE,
  order_effect      DOUBLE,
  log_se            DOUBLE,
  seq               BIGINT NOT NULL AUTO_INCREMENT,
  PRIMARY KEY (session_id, test, threads),
  UNIQUE KEY verdicts_seq (seq),
  CONSTRAINT verdicts_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  table(
    'regression_events',
    `
  id                      BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  upstream                ${KEY_TEXT} NOT NULL,
  test                    ${KEY_TEXT} NOT NULL,
  threads                 BIGINT NOT NULL,
  release_id              BIGINT NOT NULL,
  baseline_release_id     BIGINT NOT NULL,
  session_id              BIGINT NOT NULL,
  relative_qps            DOUBLE NOT NULL,
  state                   VARCHAR(16) NOT NULL CHECK (state IN ('open', 'fixed', 'accepted', 'invalid')),
  acked                   BIGINT NOT NULL DEFAULT 0,
  opened_at               ${TS} NOT NULL,
  closed_at               ${TS},
  closed_by_release_id    BIGINT,
  kind                    VARCHAR(16) NOT NULL DEFAULT 'regression' CHECK (kind IN ('regression', 'drift')),
  one_open                TINYINT GENERATED ALWAYS AS (CASE WHEN state = 'open' THEN 1 END) STORED,
  UNIQUE KEY regression_events_one_open (upstream, test, threads, one_open),
  KEY regression_events_release (release_id),
  CONSTRAINT regression_events_release FOREIGN KEY (release_id) REFERENCES releases (id),
  CONSTRAINT regression_events_baseline FOREIGN KEY (baseline_release_id) REFERENCES releases (id),
  CONSTRAINT regression_events_session FOREIGN KEY (session_id) REFERENCES sessions (id),
  CONSTRAINT regression_events_closed_by FOREIGN KEY (closed_by_release_id) REFERENCES releases (id)`,
  ),
  table(
    'triage',
    `
  id          BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  release_id  BIGINT NOT NULL,
  action      VARCHAR(16) NOT NULL CHECK (action IN ('accept', 'ack', 'invalid', 'fixed')),
  test        TEXT,
  threads     BIGINT,
  who         TEXT NOT NULL,
  reason      LONGTEXT NOT NULL,
  at          ${TS} NOT NULL,
  KEY triage_release (release_id),
  CONSTRAINT triage_release FOREIGN KEY (release_id) REFERENCES releases (id)`,
  ),
  table(
    'reruns',
    `
  release_id    BIGINT NOT NULL PRIMARY KEY,
  reason        LONGTEXT NOT NULL,
  requested_at  ${TS} NOT NULL,
  CONSTRAINT reruns_release FOREIGN KEY (release_id) REFERENCES releases (id) ON DELETE CASCADE`,
  ),
];

const outboxAndImports = [
  table(
    'outbox',
    `
  id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  event_key         VARCHAR(512) NOT NULL,
  from_address      TEXT NOT NULL,
  recipients        LONGTEXT NOT NULL,
  subject           LONGTEXT NOT NULL,
  text_body         LONGTEXT NOT NULL,
  html_body         LONGTEXT NOT NULL,
  message_id        TEXT NOT NULL,
  state             VARCHAR(16) NOT NULL CHECK (state IN ('pending', 'sent')),
  attempts          BIGINT NOT NULL DEFAULT 0,
  next_attempt_at   ${TS} NOT NULL,
  last_error        LONGTEXT,
  detail            LONGTEXT,
  created_at        ${TS} NOT NULL,
  sent_at           ${TS},
  UNIQUE KEY outbox_event_key (event_key),
  KEY outbox_due (state, next_attempt_at)`,
  ),
  table(
    'imported_results',
    `
  id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  flavor            VARCHAR(64) NOT NULL,
  version           VARCHAR(128) NOT NULL,
  version_key       ${KEY_TEXT} NOT NULL,
  test              ${KEY_TEXT} NOT NULL,
  threads           BIGINT NOT NULL,
  qps               DOUBLE NOT NULL CHECK (qps > 0),
  cpu_per_op        DOUBLE NOT NULL,
  cs_per_op         DOUBLE NOT NULL,
  reads_per_op      DOUBLE NOT NULL,
  read_kb_per_op    DOUBLE NOT NULL,
  write_kb_per_op   DOUBLE NOT NULL,
  source            LONGTEXT NOT NULL,
  imported_at       ${TS} NOT NULL,
  UNIQUE KEY imported_results_key (flavor, version, test, threads)`,
  ),
];

const daemonTables = [
  table(
    'release_queue',
    `
  release_id        BIGINT NOT NULL,
  slot              ${KEY_TEXT} NOT NULL DEFAULT '',
  state             VARCHAR(16) NOT NULL
                      CHECK (state IN ('discovered', 'building', 'built', 'benchmarking', 'done', 'failed')),
  attempts          BIGINT NOT NULL DEFAULT 0,
  last_error        LONGTEXT,
  enqueued_at       ${TS} NOT NULL,
  updated_at        ${TS} NOT NULL,
  failures          BIGINT NOT NULL DEFAULT 0 CHECK (failures >= 0),
  failed_step       VARCHAR(16) CHECK (failed_step IN ('build', 'session')),
  next_attempt_at   ${TS},
  error_lines       LONGTEXT NOT NULL ${EMPTY_ARRAY},
  claimed_by        TEXT,
  claim_expires_at  ${TS},
  PRIMARY KEY (release_id, slot),
  KEY release_queue_state (slot, state),
  CONSTRAINT release_queue_release FOREIGN KEY (release_id) REFERENCES releases (id) ON DELETE CASCADE`,
  ),
  table(
    'daemon_state',
    `
  host          ${KEY_TEXT} NOT NULL PRIMARY KEY,
  last_poll_at  ${TS},
  phase         VARCHAR(64) NOT NULL DEFAULT 'idle',
  phase_since   ${TS},
  detail        LONGTEXT,
  pid           BIGINT,
  updated_at    ${TS},
  progress      LONGTEXT,
  cache_sizes   LONGTEXT`,
  ),
  table(
    'session_quiet_host',
    `
  session_id      BIGINT NOT NULL PRIMARY KEY,
  observation     LONGTEXT NOT NULL,
  quiet           BIGINT NOT NULL,
  reasons         LONGTEXT NOT NULL,
  waited_seconds  DOUBLE NOT NULL CHECK (waited_seconds >= 0),
  checked_at      ${TS} NOT NULL,
  CONSTRAINT session_quiet_host_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  table(
    'calibrations',
    `
  id          BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  host_id     BIGINT NOT NULL,
  suite       ${KEY_TEXT} NOT NULL,
  session_id  BIGINT NOT NULL,
  target      TEXT NOT NULL,
  settings    LONGTEXT NOT NULL,
  tests       LONGTEXT NOT NULL,
  created_at  ${TS} NOT NULL,
  KEY calibrations_latest (host_id, suite, id),
  CONSTRAINT calibrations_host FOREIGN KEY (host_id) REFERENCES hosts (id),
  CONSTRAINT calibrations_session FOREIGN KEY (session_id) REFERENCES sessions (id)`,
  ),
];

const packsBisectionsProfiles = [
  table(
    'session_figures',
    `
  session_id  BIGINT NOT NULL PRIMARY KEY,
  layout      LONGTEXT NOT NULL,
  figures     LONGBLOB NOT NULL,
  CONSTRAINT session_figures_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  // SQLite moves this counter with triggers; here MysqlConnection.write moves it (no TRIGGER or SUPER privilege).
  table('results_mark', 'id BIGINT NOT NULL PRIMARY KEY CHECK (id = 1), n BIGINT NOT NULL'),
  'INSERT IGNORE INTO results_mark (id, n) VALUES (1, 0)',
  table(
    'bisections',
    `
  id                  BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  release_id          BIGINT NOT NULL,
  good_release_id     BIGINT NOT NULL,
  build_profile       TEXT NOT NULL,
  tests               LONGTEXT NOT NULL,
  commit_count        BIGINT NOT NULL,
  outcome             VARCHAR(16) NOT NULL CHECK (outcome IN ('found', 'ambiguous', 'undecided', 'budget', 'failed')),
  first_bad_commit    TEXT,
  first_bad_subject   LONGTEXT,
  first_bad_author    LONGTEXT,
  candidates          LONGTEXT NOT NULL ${EMPTY_ARRAY},
  steps               LONGTEXT NOT NULL ${EMPTY_ARRAY},
  builds              BIGINT NOT NULL,
  started_at          ${TS} NOT NULL,
  ended_at            ${TS} NOT NULL,
  event_id            BIGINT,
  error               LONGTEXT,
  KEY bisections_release (release_id),
  KEY bisections_event (event_id),
  CONSTRAINT bisections_release FOREIGN KEY (release_id) REFERENCES releases (id) ON DELETE CASCADE,
  CONSTRAINT bisections_good FOREIGN KEY (good_release_id) REFERENCES releases (id) ON DELETE CASCADE,
  CONSTRAINT bisections_event FOREIGN KEY (event_id) REFERENCES regression_events (id) ON DELETE SET NULL`,
  ),
  table(
    'profiles',
    `
  id                BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  baseline          TEXT NOT NULL,
  candidate         TEXT NOT NULL,
  test              TEXT NOT NULL,
  threads           BIGINT NOT NULL,
  seconds           DOUBLE NOT NULL,
  baseline_tool     VARCHAR(8) NOT NULL CHECK (baseline_tool IN ('perf', 'gdb')),
  candidate_tool    VARCHAR(8) NOT NULL CHECK (candidate_tool IN ('perf', 'gdb')),
  baseline_stacks   LONGTEXT NOT NULL,
  candidate_stacks  LONGTEXT NOT NULL,
  created_at        ${TS} NOT NULL,
  session_id        BIGINT,
  KEY profiles_session (session_id),
  CONSTRAINT profiles_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE SET NULL`,
  ),
  // Every write transaction locks this one row first (connection.ts): one writer at a time, as in SQLite.
  table(WRITE_LOCK_TABLE, 'id BIGINT NOT NULL PRIMARY KEY CHECK (id = 1)'),
  `INSERT IGNORE INTO ${WRITE_LOCK_TABLE} (id) VALUES (1)`,
];

/**
 * Migration 19, the instructions lane (as SQLite's): counted runs, function tables, each session's lane, a check's
 * verdicts of the lane (seq keeps their order, as verdicts.seq does) and its events (one_open, as regression_events').
 */
const instructionsLane = [
  table(
    'instruction_runs',
    `
  id              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  session_id      BIGINT NOT NULL,
  role            VARCHAR(16) NOT NULL CHECK (role IN ('baseline', 'candidate')),
  target          TEXT NOT NULL,
  build_key       ${KEY_TEXT} NOT NULL,
  test            ${KEY_TEXT} NOT NULL,
  threads         BIGINT NOT NULL,
  repetition      BIGINT NOT NULL CHECK (repetition >= 1),
  instructions    BIGINT NOT NULL CHECK (instructions >= 0),
  queries         BIGINT NOT NULL CHECK (queries > 0),
  condition_key   VARCHAR(64) NOT NULL,
  conditions      LONGTEXT NOT NULL,
  seconds         DOUBLE NOT NULL,
  created_at      ${TS} NOT NULL,
  UNIQUE KEY instruction_runs_repeat (session_id, role, test, threads, repetition),
  KEY instruction_runs_figure (build_key, condition_key),
  CONSTRAINT instruction_runs_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  table(
    'instruction_functions',
    `
  session_id  BIGINT NOT NULL,
  role        VARCHAR(16) NOT NULL CHECK (role IN ('baseline', 'candidate')),
  test        ${KEY_TEXT} NOT NULL,
  threads     BIGINT NOT NULL,
  functions   LONGTEXT NOT NULL,
  PRIMARY KEY (session_id, role, test, threads),
  CONSTRAINT instruction_functions_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  table(
    'instruction_lanes',
    `
  session_id        BIGINT NOT NULL PRIMARY KEY,
  state             VARCHAR(16) NOT NULL CHECK (state IN ('done', 'skipped', 'failed')),
  reason            TEXT,
  counter           VARCHAR(16) CHECK (counter IN ('callgrind', 'perf')),
  counter_version   TEXT,
  runs              BIGINT NOT NULL,
  seconds           DOUBLE NOT NULL,
  CONSTRAINT instruction_lanes_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  table(
    'instruction_verdicts',
    `
  session_id  BIGINT NOT NULL,
  test        ${KEY_TEXT} NOT NULL,
  threads     BIGINT NOT NULL,
  kind        VARCHAR(16) NOT NULL CHECK (kind IN ('ok', 'regression', 'improvement', 'unclear')),
  ratio       DOUBLE NOT NULL,
  low         DOUBLE NOT NULL,
  high        DOUBLE NOT NULL,
  threshold   DOUBLE NOT NULL,
  baseline    LONGTEXT NOT NULL,
  candidate   LONGTEXT NOT NULL,
  seq         BIGINT NOT NULL AUTO_INCREMENT,
  PRIMARY KEY (session_id, test, threads),
  UNIQUE KEY instruction_verdicts_seq (seq),
  CONSTRAINT instruction_verdicts_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
  ),
  table(
    'instruction_events',
    `
  id                      BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  upstream                ${KEY_TEXT} NOT NULL,
  test                    ${KEY_TEXT} NOT NULL,
  threads                 BIGINT NOT NULL,
  release_id              BIGINT NOT NULL,
  baseline_release_id     BIGINT NOT NULL,
  session_id              BIGINT NOT NULL,
  ratio                   DOUBLE NOT NULL,
  kind                    VARCHAR(16) NOT NULL CHECK (kind IN ('regression', 'drift')),
  state                   VARCHAR(16) NOT NULL CHECK (state IN ('open', 'fixed', 'accepted', 'invalid')),
  acked                   BIGINT NOT NULL DEFAULT 0,
  opened_at               ${TS} NOT NULL,
  closed_at               ${TS},
  closed_by_release_id    BIGINT,
  one_open                TINYINT GENERATED ALWAYS AS (CASE WHEN state = 'open' THEN 1 END) STORED,
  UNIQUE KEY instruction_events_one_open (upstream, test, threads, one_open),
  KEY instruction_events_release (release_id),
  CONSTRAINT instruction_events_release FOREIGN KEY (release_id) REFERENCES releases (id),
  CONSTRAINT instruction_events_baseline FOREIGN KEY (baseline_release_id) REFERENCES releases (id),
  CONSTRAINT instruction_events_session FOREIGN KEY (session_id) REFERENCES sessions (id),
  CONSTRAINT instruction_events_closed_by FOREIGN KEY (closed_by_release_id) REFERENCES releases (id)`,
  ),
];

/** The version table itself; created before any migration, so its row says how far the migrations got. */
export const VERSION_TABLE_STEPS: readonly string[] = [
  table('schema_version', 'id BIGINT NOT NULL PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL'),
  'INSERT IGNORE INTO schema_version (id, version) VALUES (1, 0)',
];

export const mysqlMigrations: readonly MysqlMigration[] = [
  {
    version: BASELINE_VERSION,
    name: `baseline: the SQLite schema at version ${BASELINE_VERSION}`,
    steps: [
      ...hostsAndSessions,
      ...releasesAndBuilds,
      ...checksAndEvents,
      ...outboxAndImports,
      ...daemonTables,
      ...packsBisectionsProfiles,
    ],
  },
  {
    version: 19,
    name: 'calibrations keep the spread between server instances',
    steps: ['ALTER TABLE calibrations ADD COLUMN instance_spread DOUBLE NULL CHECK (instance_spread >= 0)'],
  },
  {
    version: 20,
    name: "the instructions lane: counted runs, function tables, each session's lane, a check's verdicts and events",
    steps: instructionsLane,
  },
  {
    version: 21,
    name: "verdicts keep their error's degrees of freedom",
    steps: ['ALTER TABLE verdicts ADD COLUMN log_se_df DOUBLE NULL CHECK (log_se_df >= 0)'],
  },
  {
    version: 22,
    name: "each side's server variables and statement plans",
    steps: [
      table(
        'session_sides',
        `
  session_id  BIGINT NOT NULL,
  role        VARCHAR(16) NOT NULL CHECK (role IN ('baseline', 'candidate')),
  variables   LONGTEXT,
  plans       LONGTEXT,
  PRIMARY KEY (session_id, role),
  CONSTRAINT session_sides_session FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE`,
      ),
    ],
  },
];

// The two backends' versions move together: a change made on one and not the other fails here, at load.
if (mysqlMigrations.at(-1)!.version !== sqliteLatestVersion)
  throw new Error(`the MySQL migrations end at ${mysqlMigrations.at(-1)!.version}, SQLite's at ${sqliteLatestVersion}`);

export const mysqlLatestVersion = mysqlMigrations.at(-1)?.version ?? 0;
