/**
 * Schema migrations, numbered in code. PRAGMA user_version holds the number of the last one applied; each runs in
 * its own transaction together with the version bump, so a crash leaves the file at one version or the next.
 * Never edit a released migration: add the next number.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const initial = `
CREATE TABLE hosts (
  id              INTEGER PRIMARY KEY,
  fingerprint_id  TEXT NOT NULL UNIQUE,
  fingerprint     TEXT NOT NULL,            -- JSON
  first_seen_at   TEXT NOT NULL,
  last_seen_at    TEXT NOT NULL
);

-- Targets have no table of their own yet: each session keeps a copy of both sides.
CREATE TABLE sessions (
  id                          INTEGER PRIMARY KEY,
  kind                        TEXT NOT NULL CHECK (kind IN ('compare')),
  host_id                     INTEGER NOT NULL REFERENCES hosts (id),
  state                       TEXT NOT NULL CHECK (state IN ('running', 'done', 'interrupted', 'failed')),
  baseline_name               TEXT NOT NULL,
  baseline_flavor             TEXT NOT NULL,
  baseline_version            TEXT NOT NULL,
  baseline_binary             TEXT NOT NULL,
  baseline_server_profile     TEXT NOT NULL,
  baseline_description        TEXT NOT NULL,  -- JSON
  candidate_name              TEXT NOT NULL,
  candidate_flavor            TEXT NOT NULL,
  candidate_version           TEXT NOT NULL,
  candidate_binary            TEXT NOT NULL,
  candidate_server_profile    TEXT NOT NULL,
  candidate_description       TEXT NOT NULL,  -- JSON
  suite                       TEXT NOT NULL,
  rounds                      INTEGER NOT NULL CHECK (rounds >= 1),
  pid                         INTEGER NOT NULL,
  settings                    TEXT NOT NULL,  -- JSON
  error                       TEXT,
  started_at                  TEXT NOT NULL,
  ended_at                    TEXT
);
CREATE INDEX sessions_state ON sessions (state);

CREATE TABLE samples (
  id                INTEGER PRIMARY KEY,
  session_id        INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  round             INTEGER NOT NULL,
  role              TEXT NOT NULL CHECK (role IN ('baseline', 'candidate')),
  target_name       TEXT NOT NULL,
  test              TEXT NOT NULL,
  threads           INTEGER NOT NULL,
  seconds           REAL NOT NULL,
  qps               REAL NOT NULL CHECK (qps >= 0),
  tps               REAL NOT NULL,
  latency_avg_ms    REAL NOT NULL,
  latency_p95_ms    REAL NOT NULL,
  latency_max_ms    REAL NOT NULL,
  errors            INTEGER NOT NULL,
  reconnects        INTEGER NOT NULL,
  created_at        TEXT NOT NULL,
  UNIQUE (session_id, round, role, test, threads)
);

-- Host resources of the measured interval, per operation, plus the raw usage they came from.
CREATE TABLE host_metrics (
  sample_id           INTEGER PRIMARY KEY REFERENCES samples (id) ON DELETE CASCADE,
  cpu_per_op          REAL NOT NULL,
  cpu_micros_per_op   REAL NOT NULL,
  cs_per_op           REAL NOT NULL,
  reads_per_op        REAL NOT NULL,
  read_kb_per_op      REAL NOT NULL,
  write_kb_per_op     REAL NOT NULL,
  host_usage          TEXT NOT NULL           -- JSON
);

CREATE TABLE db_counters (
  sample_id   INTEGER NOT NULL REFERENCES samples (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  delta       REAL NOT NULL,
  per_op      REAL NOT NULL,
  PRIMARY KEY (sample_id, name)
);
`;

const releasesAndBuilds = `
CREATE TABLE releases (
  id              INTEGER PRIMARY KEY,
  upstream        TEXT NOT NULL,
  flavor          TEXT NOT NULL,
  tag             TEXT NOT NULL,
  commit_sha      TEXT NOT NULL,
  version         TEXT NOT NULL,
  version_key     TEXT NOT NULL,
  first_seen_at   TEXT NOT NULL,
  moved_from      TEXT,
  moved_at        TEXT,
  UNIQUE (upstream, tag)
);
CREATE INDEX releases_order ON releases (upstream, version_key);

-- One row per build key; a retry or a dead builder replaces the row of a failed or unfinished build.
CREATE TABLE builds (
  id                INTEGER PRIMARY KEY,
  release_id        INTEGER NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  build_key         TEXT NOT NULL UNIQUE,
  profile           TEXT NOT NULL,
  compiler          TEXT NOT NULL,
  state             TEXT NOT NULL CHECK (state IN ('building', 'built', 'failed')),
  install_dir       TEXT NOT NULL,
  log_file          TEXT NOT NULL,
  pid               INTEGER NOT NULL,
  error_lines       TEXT NOT NULL DEFAULT '[]',   -- JSON array
  started_at        TEXT NOT NULL,
  ended_at          TEXT,
  duration_seconds  REAL
);
CREATE INDEX builds_release ON builds (release_id);
`;

const checksAndTriage = `
-- A check: one session that judged a release against the last good release of its upstream.
CREATE TABLE checks (
  session_id            INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  release_id            INTEGER NOT NULL REFERENCES releases (id),
  baseline_release_id   INTEGER NOT NULL REFERENCES releases (id),
  outcome               TEXT NOT NULL CHECK (outcome IN ('ok', 'regression')),
  invalid               INTEGER NOT NULL DEFAULT 0,
  judged_at             TEXT NOT NULL
);
CREATE INDEX checks_release ON checks (release_id);

CREATE TABLE verdicts (
  session_id        INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  test              TEXT NOT NULL,
  threads           INTEGER NOT NULL,
  kind              TEXT NOT NULL CHECK (kind IN ('ok', 'regression', 'improvement', 'unstable')),
  relative_qps      REAL NOT NULL,
  threshold         REAL NOT NULL,
  p_slower          REAL NOT NULL,
  p_faster          REAL NOT NULL,
  baseline_spread   REAL NOT NULL,
  hint              TEXT NOT NULL,          -- JSON array
  PRIMARY KEY (session_id, test, threads)
);

-- One regressed test of one upstream, from the release where it started until a later release recovers it, a
-- person accepts the new normal, or the check that opened it is found invalid.
CREATE TABLE regression_events (
  id                      INTEGER PRIMARY KEY,
  upstream                TEXT NOT NULL,
  test                    TEXT NOT NULL,
  threads                 INTEGER NOT NULL,
  release_id              INTEGER NOT NULL REFERENCES releases (id),
  baseline_release_id     INTEGER NOT NULL REFERENCES releases (id),
  session_id              INTEGER NOT NULL REFERENCES sessions (id),
  relative_qps            REAL NOT NULL,
  state                   TEXT NOT NULL CHECK (state IN ('open', 'fixed', 'accepted', 'invalid')),
  acked                   INTEGER NOT NULL DEFAULT 0,
  opened_at               TEXT NOT NULL,
  closed_at               TEXT,
  closed_by_release_id    INTEGER REFERENCES releases (id)
);
CREATE UNIQUE INDEX regression_events_one_open ON regression_events (upstream, test, threads) WHERE state = 'open';

CREATE TABLE triage (
  id          INTEGER PRIMARY KEY,
  release_id  INTEGER NOT NULL REFERENCES releases (id),
  action      TEXT NOT NULL CHECK (action IN ('accept', 'ack', 'invalid', 'fixed')),
  test        TEXT,
  threads     INTEGER,
  who         TEXT NOT NULL,
  reason      TEXT NOT NULL,
  at          TEXT NOT NULL
);
CREATE INDEX triage_release ON triage (release_id);

-- Messages are queued in the transaction that decided them, so a restart neither loses nor repeats one.
CREATE TABLE outbox (
  id                INTEGER PRIMARY KEY,
  event_key         TEXT NOT NULL UNIQUE,
  from_address      TEXT NOT NULL,
  recipients        TEXT NOT NULL,          -- JSON array
  subject           TEXT NOT NULL,
  text_body         TEXT NOT NULL,
  html_body         TEXT NOT NULL,
  message_id        TEXT NOT NULL,
  state             TEXT NOT NULL CHECK (state IN ('pending', 'sent')),
  attempts          INTEGER NOT NULL DEFAULT 0,
  next_attempt_at   TEXT NOT NULL,
  last_error        TEXT,
  detail            TEXT,
  created_at        TEXT NOT NULL,
  sent_at           TEXT
);
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);

CREATE TABLE imported_results (
  id                INTEGER PRIMARY KEY,
  flavor            TEXT NOT NULL,
  version           TEXT NOT NULL,
  version_key       TEXT NOT NULL,
  test              TEXT NOT NULL,
  threads           INTEGER NOT NULL,
  qps               REAL NOT NULL CHECK (qps > 0),
  cpu_per_op        REAL NOT NULL,
  cs_per_op         REAL NOT NULL,
  reads_per_op      REAL NOT NULL,
  read_kb_per_op    REAL NOT NULL,
  write_kb_per_op   REAL NOT NULL,
  source            TEXT NOT NULL,
  imported_at       TEXT NOT NULL,
  UNIQUE (flavor, version, test, threads)
);

-- Releases a person sent back for another check (qpswatch invalid).
CREATE TABLE reruns (
  release_id    INTEGER PRIMARY KEY REFERENCES releases (id) ON DELETE CASCADE,
  reason        TEXT NOT NULL,
  requested_at  TEXT NOT NULL
);
`;

const daemonQueue = `
-- The daemon's queue: one row per release, so a restart resumes where the last daemon stopped.
CREATE TABLE release_queue (
  release_id    INTEGER PRIMARY KEY REFERENCES releases (id) ON DELETE CASCADE,
  state         TEXT NOT NULL CHECK (state IN ('discovered', 'building', 'built', 'benchmarking', 'done', 'failed')),
  attempts      INTEGER NOT NULL DEFAULT 0,
  last_error    TEXT,
  enqueued_at   TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
CREATE INDEX release_queue_state ON release_queue (state);

-- One row: what a restarted daemon and \`qpswatch status\` need to know of the daemon.
CREATE TABLE daemon_state (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  last_poll_at  TEXT,
  phase         TEXT NOT NULL DEFAULT 'idle',
  phase_since   TEXT,
  detail        TEXT,
  pid           INTEGER,
  updated_at    TEXT
);

-- What the quiet-host check saw right before a session, and how long the session waited for a quiet host.
CREATE TABLE session_quiet_host (
  session_id      INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  observation     TEXT NOT NULL,          -- JSON
  quiet           INTEGER NOT NULL,
  reasons         TEXT NOT NULL,          -- JSON array
  waited_seconds  REAL NOT NULL CHECK (waited_seconds >= 0),
  checked_at      TEXT NOT NULL
);
`;

// A check with a drop it could not call significant either way says nothing about whether the release is good.
const checkConclusive = `
ALTER TABLE checks ADD COLUMN conclusive INTEGER NOT NULL DEFAULT 1;
`;

// Every verdict says what its session could have caught: its interval, the drop it would detect 4 times in 5, and
// the pairs (or rounds) and the noise of one pair behind it. Verdicts judged before have none (NULL).
const verdictReach = `
ALTER TABLE verdicts ADD COLUMN low REAL;
ALTER TABLE verdicts ADD COLUMN high REAL;
ALTER TABLE verdicts ADD COLUMN confidence REAL;
ALTER TABLE verdicts ADD COLUMN detectable_drop REAL;
ALTER TABLE verdicts ADD COLUMN pairs INTEGER;
ALTER TABLE verdicts ADD COLUMN noise REAL;
`;

// What `qpswatch calibrate` found on a host for a suite: the noise of a pair per test and what a 5% detectable
// drop costs there. The daemon and `status` read the newest of a host and suite.
const calibrations = `
CREATE TABLE calibrations (
  id          INTEGER PRIMARY KEY,
  host_id     INTEGER NOT NULL REFERENCES hosts (id),
  suite       TEXT NOT NULL,
  session_id  INTEGER NOT NULL REFERENCES sessions (id),
  target      TEXT NOT NULL,
  settings    TEXT NOT NULL,            -- JSON: alpha, family, drop, budgets
  tests       TEXT NOT NULL,            -- JSON array: per test noise, pair seconds, pairs and minutes needed
  created_at  TEXT NOT NULL
);
CREATE INDEX calibrations_latest ON calibrations (host_id, suite, id);
`;

// The daemon's retry policy: a failed build or session is tried again after a backoff, up to retry_attempts, and the
// queue row keeps how many attempts of the step failed, which step, when it may run again, and the last error lines.
const queueRetries = `
ALTER TABLE release_queue ADD COLUMN failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0);
ALTER TABLE release_queue ADD COLUMN failed_step TEXT CHECK (failed_step IN ('build', 'session'));
ALTER TABLE release_queue ADD COLUMN next_attempt_at TEXT;
ALTER TABLE release_queue ADD COLUMN error_lines TEXT NOT NULL DEFAULT '[]';  -- JSON array
`;

// A running session's pid alone says nothing once the pid is reused; with its start time it names one process.
const sessionStartTicks = `
ALTER TABLE sessions ADD COLUMN pid_start_ticks INTEGER;
`;

// The daemon writes how far its build or session is, and the last measured cache sizes, for status in another process.
const daemonProgress = `
ALTER TABLE daemon_state ADD COLUMN progress TEXT;     -- JSON: WorkProgress
ALTER TABLE daemon_state ADD COLUMN cache_sizes TEXT;  -- JSON: CacheSizes
`;

// A done session's figures, packed when it ends (store/roles/figure-packs.ts): /metrics reads one row per session,
// not every sample. The samples stay the record; a session done before this is packed when the store is next opened
// for writing. The results mark moves on every write to a table results are read from (store.resultsMark), and on
// nothing else: /metrics keeps its per-release text while it stays, whatever the daemon writes about its own status.
const RESULT_TABLES = ['sessions', 'releases', 'checks', 'verdicts', 'regression_events', 'hosts'];
const verdictMarkTriggers = ['INSERT', 'UPDATE', 'DELETE']
  .map(
    (op) =>
      `CREATE TRIGGER results_mark_verdicts_${op.toLowerCase()} AFTER ${op} ON verdicts BEGIN ` +
      'UPDATE results_mark SET n = n + 1; END;',
  )
  .join('\n');
const packsAndResultsMark = `
CREATE TABLE session_figures (
  session_id  INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  -- layout: JSON, the byte order and the figure fields; per side and test its role, test, threads, samples.
  -- figures: float64 in that byte order; per side and test, per field, its samples in the order written.
  layout      TEXT NOT NULL,
  figures     BLOB NOT NULL
);
CREATE TABLE results_mark (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  n   INTEGER NOT NULL
);
INSERT INTO results_mark (id, n) VALUES (1, 0);
${RESULT_TABLES.flatMap((table) =>
  ['INSERT', 'UPDATE', 'DELETE'].map(
    (op) =>
      `CREATE TRIGGER results_mark_${table}_${op.toLowerCase()} AFTER ${op} ` +
      `ON ${table} BEGIN UPDATE results_mark SET n = n + 1; END;`,
  ),
).join('\n')}
`;

// Two verdict changes of issue 17. A significant drop within the margin is its own verdict, slower
// (docs/verdicts.md), which the kind's CHECK must allow: SQLite cannot change a CHECK, so the verdicts table is made
// again with the same rows (rowid kept: verdicts are read in its order), and its results-mark triggers with it. The
// rebuilt table also keeps the order effect of a paired test (how much faster the second run of a pair was) and the
// standard error of log(relative QPS), which chains of checks add up (docs/verdicts.md). Then
// every stored check is judged again by the one rule of last good (model isConclusive, as it stood here): conclusive
// only when every test is ok or improvement. A release that became last good on a check with an undecided test is no
// longer; a person can accept it (triage accept).
const VERDICT_COLUMNS =
  'session_id, test, threads, kind, relative_qps, threshold, p_slower, ' +
  'p_faster, baseline_spread, hint, low, high, confidence, ' +
  'detectable_drop, pairs, noise';
const slowerVerdicts = `
CREATE TABLE verdicts_12 (
  session_id        INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  test              TEXT NOT NULL,
  threads           INTEGER NOT NULL,
  kind              TEXT NOT NULL CHECK (kind IN ('ok', 'regression', 'improvement', 'slower', 'unstable')),
  relative_qps      REAL NOT NULL,
  threshold         REAL NOT NULL,
  p_slower          REAL NOT NULL,
  p_faster          REAL NOT NULL,
  baseline_spread   REAL NOT NULL,
  hint              TEXT NOT NULL,          -- JSON array
  low               REAL,
  high              REAL,
  confidence        REAL,
  detectable_drop   REAL,
  pairs             INTEGER,
  noise             REAL,
  order_effect      REAL,                   -- paired design: second run / first run of a pair; NULL for whole runs
  log_se            REAL,                   -- standard error of log(relative_qps); NULL before this migration
  PRIMARY KEY (session_id, test, threads)
);
INSERT INTO verdicts_12 (rowid, ${VERDICT_COLUMNS}) SELECT rowid, ${VERDICT_COLUMNS} FROM verdicts ORDER BY rowid;
DROP TABLE verdicts;
ALTER TABLE verdicts_12 RENAME TO verdicts;
${verdictMarkTriggers}
UPDATE checks SET conclusive = NOT EXISTS (
  SELECT 1 FROM verdicts v WHERE v.session_id = checks.session_id AND v.kind NOT IN ('ok', 'improvement')
);
`;

// Events opened by a session directly against the series' base are drifts; every older one was a regression.
const eventKinds = `
ALTER TABLE regression_events ADD COLUMN kind TEXT NOT NULL DEFAULT 'regression'
  CHECK (kind IN ('regression', 'drift'));
`;

// A bisection of a regressed tag: the range it searched, each step it took, and the first bad commit it named.
// Commit subjects and authors are kept as git gave them (data), escaped wherever they are shown.
const bisections = `
CREATE TABLE IF NOT EXISTS bisections (
  id                  INTEGER PRIMARY KEY,
  release_id          INTEGER NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  good_release_id     INTEGER NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  build_profile       TEXT NOT NULL,
  tests               TEXT NOT NULL,                -- JSON array of test names
  commit_count        INTEGER NOT NULL,
  outcome             TEXT NOT NULL CHECK (outcome IN ('found', 'ambiguous', 'undecided', 'budget')),
  first_bad_commit    TEXT,
  first_bad_subject   TEXT,
  first_bad_author    TEXT,
  candidates          TEXT NOT NULL DEFAULT '[]',   -- JSON array of commits the first bad one may be
  steps               TEXT NOT NULL DEFAULT '[]',   -- JSON array of steps, in the order they ran
  builds              INTEGER NOT NULL,
  started_at          TEXT NOT NULL,
  ended_at            TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS bisections_release ON bisections (release_id);
`;

// Differential profiles (qpswatch profile): each side's folded stacks as JSON; no session row, as no samples are kept.
const profiles = `
CREATE TABLE profiles (
  id                INTEGER PRIMARY KEY,
  baseline          TEXT NOT NULL,
  candidate         TEXT NOT NULL,
  test              TEXT NOT NULL,
  threads           INTEGER NOT NULL,
  seconds           REAL NOT NULL,
  baseline_tool     TEXT NOT NULL CHECK (baseline_tool IN ('perf', 'gdb')),
  candidate_tool    TEXT NOT NULL CHECK (candidate_tool IN ('perf', 'gdb')),
  baseline_stacks   TEXT NOT NULL,          -- JSON array of { stack, count }
  candidate_stacks  TEXT NOT NULL,
  created_at        TEXT NOT NULL
);
`;

// A check's profile of its worst regressed test names the check's session, so the email and the report find it.
const profileSessions = `
ALTER TABLE profiles ADD COLUMN session_id INTEGER REFERENCES sessions (id) ON DELETE SET NULL;
CREATE INDEX profiles_session ON profiles (session_id);
`;

// An automatic bisection belongs to the regression event that started it (bisect: true), and one that failed on the
// way is kept, with its error. SQLite cannot widen a CHECK, so the table is copied into its new shape.
const bisectionEvents = `
CREATE TABLE bisections_new (
  id                  INTEGER PRIMARY KEY,
  release_id          INTEGER NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  good_release_id     INTEGER NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  build_profile       TEXT NOT NULL,
  tests               TEXT NOT NULL,
  commit_count        INTEGER NOT NULL,
  outcome             TEXT NOT NULL CHECK (outcome IN ('found', 'ambiguous', 'undecided', 'budget', 'failed')),
  first_bad_commit    TEXT,
  first_bad_subject   TEXT,
  first_bad_author    TEXT,
  candidates          TEXT NOT NULL DEFAULT '[]',
  steps               TEXT NOT NULL DEFAULT '[]',
  builds              INTEGER NOT NULL,
  started_at          TEXT NOT NULL,
  ended_at            TEXT NOT NULL,
  event_id            INTEGER REFERENCES regression_events (id) ON DELETE SET NULL,
  error               TEXT
);
INSERT INTO bisections_new (id, release_id, good_release_id, build_profile, tests, commit_count, outcome,
    first_bad_commit, first_bad_subject, first_bad_author, candidates, steps, builds, started_at, ended_at)
  SELECT id, release_id, good_release_id, build_profile, tests, commit_count, outcome, first_bad_commit,
    first_bad_subject, first_bad_author, candidates, steps, builds, started_at, ended_at FROM bisections;
DROP TABLE bisections;
ALTER TABLE bisections_new RENAME TO bisections;
CREATE INDEX bisections_release ON bisections (release_id);
CREATE INDEX bisections_event ON bisections (event_id);
`;

// A fleet of daemons shares one store (store_backend: mysql; SQLite takes the same shape so a store copies across):
// the queue holds a row per release and slot (a host's name, or its host class), and a daemon working on a row
// claims it until a time it keeps moving on, so another daemon of the slot takes the row over once a dead one's claim
// lapses. The rows of a queue from before have the slot '', which the first daemon to recover the queue adopts.
const fleetQueue = `
CREATE TABLE release_queue_new (
  release_id        INTEGER NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  slot              TEXT NOT NULL DEFAULT '',
  state             TEXT NOT NULL
                      CHECK (state IN ('discovered', 'building', 'built', 'benchmarking', 'done', 'failed')),
  attempts          INTEGER NOT NULL DEFAULT 0,
  last_error        TEXT,
  enqueued_at       TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  failures          INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
  failed_step       TEXT CHECK (failed_step IN ('build', 'session')),
  next_attempt_at   TEXT,
  error_lines       TEXT NOT NULL DEFAULT '[]',  -- JSON array
  claimed_by        TEXT,
  claim_expires_at  TEXT,
  PRIMARY KEY (release_id, slot)
);
INSERT INTO release_queue_new (release_id, slot, state, attempts, last_error, enqueued_at, updated_at, failures,
  failed_step, next_attempt_at, error_lines)
  SELECT release_id, '', state, attempts, last_error, enqueued_at, updated_at, failures, failed_step, next_attempt_at,
    error_lines FROM release_queue;
DROP TABLE release_queue;
ALTER TABLE release_queue_new RENAME TO release_queue;
CREATE INDEX release_queue_state ON release_queue (slot, state);

-- Each daemon of a fleet has its own state row, by host_name; the one row of before becomes the host '' (read by a
-- host until it writes its own).
CREATE TABLE daemon_state_new (
  host          TEXT PRIMARY KEY,
  last_poll_at  TEXT,
  phase         TEXT NOT NULL DEFAULT 'idle',
  phase_since   TEXT,
  detail        TEXT,
  pid           INTEGER,
  updated_at    TEXT,
  progress      TEXT,     -- JSON: WorkProgress
  cache_sizes   TEXT      -- JSON: CacheSizes
);
INSERT INTO daemon_state_new (host, last_poll_at, phase, phase_since, detail, pid, updated_at, progress, cache_sizes)
  SELECT '', last_poll_at, phase, phase_since, detail, pid, updated_at, progress, cache_sizes FROM daemon_state;
DROP TABLE daemon_state;
ALTER TABLE daemon_state_new RENAME TO daemon_state;
`;

// The spread between two server instances of one release on this host, measured by `qpswatch calibrate` (the sd of
// one instance's offset per test, the median over the suite's tests): bench:sim draws its instance offsets from it.
const calibrationInstanceSpread = `
ALTER TABLE calibrations ADD COLUMN instance_spread REAL CHECK (instance_spread IS NULL OR instance_spread >= 0);
`;

// The instructions lane (docs/verdicts.md, "Instructions per query"): each counted run with everything its figure
// depends on (the conditions, and their hash, by which runs of one binary compare across sessions), each side's
// function table of a test, how a session's lane ended; a check's verdicts of the lane and the events it opens, which
// are triaged as the QPS lane's are. Verdicts and events are results: the results mark moves on them. Safe to run
// again (IF NOT EXISTS), as a store taken back to an older version by a test runs it again.
const INSTRUCTION_RESULT_TABLES = ['instruction_verdicts', 'instruction_events'];
const instructionsLane = `
CREATE TABLE IF NOT EXISTS instruction_runs (
  id              INTEGER PRIMARY KEY,
  session_id      INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  role            TEXT NOT NULL CHECK (role IN ('baseline', 'candidate')),
  target          TEXT NOT NULL,
  build_key       TEXT NOT NULL,
  test            TEXT NOT NULL,
  threads         INTEGER NOT NULL,
  repetition      INTEGER NOT NULL CHECK (repetition >= 1),
  instructions    INTEGER NOT NULL CHECK (instructions >= 0),
  queries         INTEGER NOT NULL CHECK (queries > 0),
  condition_key   TEXT NOT NULL,
  conditions      TEXT NOT NULL,            -- JSON
  seconds         REAL NOT NULL,
  created_at      TEXT NOT NULL,
  UNIQUE (session_id, role, test, threads, repetition)
);
CREATE INDEX IF NOT EXISTS instruction_runs_figure ON instruction_runs (build_key, condition_key);

CREATE TABLE IF NOT EXISTS instruction_functions (
  session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  role        TEXT NOT NULL CHECK (role IN ('baseline', 'candidate')),
  test        TEXT NOT NULL,
  threads     INTEGER NOT NULL,
  functions   TEXT NOT NULL,                -- JSON array of { name, object, inclusive, exclusive } per query
  PRIMARY KEY (session_id, role, test, threads)
);

CREATE TABLE IF NOT EXISTS instruction_lanes (
  session_id        INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
  state             TEXT NOT NULL CHECK (state IN ('done', 'skipped', 'failed')),
  reason            TEXT,
  counter           TEXT CHECK (counter IN ('callgrind', 'perf')),
  counter_version   TEXT,
  runs              INTEGER NOT NULL,
  seconds           REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS instruction_verdicts (
  session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  test        TEXT NOT NULL,
  threads     INTEGER NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('ok', 'regression', 'improvement', 'unclear')),
  ratio       REAL NOT NULL,
  low         REAL NOT NULL,
  high        REAL NOT NULL,
  threshold   REAL NOT NULL,
  baseline    TEXT NOT NULL,                -- JSON: per repeat, median, spread
  candidate   TEXT NOT NULL,
  PRIMARY KEY (session_id, test, threads)
);

CREATE TABLE IF NOT EXISTS instruction_events (
  id                      INTEGER PRIMARY KEY,
  upstream                TEXT NOT NULL,
  test                    TEXT NOT NULL,
  threads                 INTEGER NOT NULL,
  release_id              INTEGER NOT NULL REFERENCES releases (id),
  baseline_release_id     INTEGER NOT NULL REFERENCES releases (id),
  session_id              INTEGER NOT NULL REFERENCES sessions (id),
  ratio                   REAL NOT NULL,
  kind                    TEXT NOT NULL CHECK (kind IN ('regression', 'drift')),
  state                   TEXT NOT NULL CHECK (state IN ('open', 'fixed', 'accepted', 'invalid')),
  acked                   INTEGER NOT NULL DEFAULT 0,
  opened_at               TEXT NOT NULL,
  closed_at               TEXT,
  closed_by_release_id    INTEGER REFERENCES releases (id)
);
CREATE UNIQUE INDEX IF NOT EXISTS instruction_events_one_open ON instruction_events (upstream, test, threads)
  WHERE state = 'open';
${INSTRUCTION_RESULT_TABLES.flatMap((table) =>
  ['INSERT', 'UPDATE', 'DELETE'].map(
    (op) =>
      `CREATE TRIGGER IF NOT EXISTS results_mark_${table}_${op.toLowerCase()} AFTER ${op} ` +
      `ON ${table} BEGIN UPDATE results_mark SET n = n + 1; END;`,
  ),
).join('\n')}
`;

// The degrees of freedom of a verdict's logSe (paired: its blocks less 1), so the chain's intervals and the step rule
// take Student's t at the error's own; NULL for the verdicts stored before, which the chain takes at pairs - 2.
const verdictSeDf = `
ALTER TABLE verdicts ADD COLUMN log_se_df REAL CHECK (log_se_df IS NULL OR log_se_df >= 0);
`;

// What each side of a session ran with: its SHOW GLOBAL VARIABLES and the plans of its tests' statements, kept at its
// first start, so a report can say which differ.
const sessionSides = `
CREATE TABLE IF NOT EXISTS session_sides (
  session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  role        TEXT NOT NULL CHECK (role IN ('baseline', 'candidate')),
  variables   TEXT,                         -- JSON object of name to value
  plans       TEXT,                         -- JSON array of { test, statement, plan or error }
  PRIMARY KEY (session_id, role)
);
`;

export const migrations: readonly Migration[] = [
  { version: 1, name: 'hosts, sessions, samples', sql: initial },
  { version: 2, name: 'releases and builds', sql: releasesAndBuilds },
  { version: 3, name: 'checks, verdicts, events, triage, outbox, imported results', sql: checksAndTriage },
  { version: 4, name: 'daemon queue, daemon state, quiet-host observations', sql: daemonQueue },
  { version: 5, name: 'checks say whether they were conclusive', sql: checkConclusive },
  { version: 6, name: 'verdicts carry their interval and detectable drop', sql: verdictReach },
  { version: 7, name: 'host calibrations per suite', sql: calibrations },
  { version: 8, name: 'queue rows keep their failed attempts, next attempt and last error lines', sql: queueRetries },
  { version: 9, name: 'sessions keep their process start time', sql: sessionStartTicks },
  { version: 10, name: 'the daemon state keeps the progress of its work and the cache sizes', sql: daemonProgress },
  { version: 11, name: 'done sessions keep their figures packed; the results mark', sql: packsAndResultsMark },
  {
    version: 12,
    name: 'verdicts may be slower and keep the order effect; checks judged again by the rule of last good',
    sql: slowerVerdicts,
  },
  { version: 13, name: 'regression events say whether they are a drift against the base', sql: eventKinds },
  { version: 14, name: 'bisections of regressed tags', sql: bisections },
  { version: 15, name: "differential profiles keep both sides' folded stacks", sql: profiles },
  { version: 16, name: "a check's profile names the check's session", sql: profileSessions },
  { version: 17, name: 'bisections name the event that started them, and keep a failure', sql: bisectionEvents },
  {
    version: 18,
    name: 'a queue row per release and fleet slot, claimed by the daemon on it; a daemon state row per host',
    sql: fleetQueue,
  },
  { version: 19, name: 'calibrations keep the spread between server instances', sql: calibrationInstanceSpread },
  {
    version: 20,
    name: "the instructions lane: counted runs, function tables, each session's lane, a check's verdicts and events",
    sql: instructionsLane,
  },
  { version: 21, name: "verdicts keep their error's degrees of freedom", sql: verdictSeDf },
  { version: 22, name: "each side's server variables and statement plans", sql: sessionSides },
];

export const latestVersion = migrations.at(-1)?.version ?? 0;
