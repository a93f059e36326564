#!/usr/bin/env bash
# The drift walk-through on this host: the demo upstream's 10.6 series, whose every release makes the server run a
# fixed number of instructions more per query, about 3% of a range read more than the release before. No single
# check sees a step that size against its threshold; the instructions lane compares each release with the series'
# base straight from stored counts and flags the drift, with one email (an .eml file in the outbox folder).
# Everything lands under ./var/demo-drift; the daemon's own cycle (`qpswatch once`) does the work. About 15 to 20
# minutes on a 2-core host. Extra arguments go to the config as YAML lines, e.g. 'budget_minutes: 4'.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
demo=$PWD/var/demo-drift
config=$demo/qpswatch.yaml
mkdir -p "$demo"
[ -d "$demo/upstream" ] || node dist/scripts/make-demo-upstream.js "$demo/upstream"
{
  cat <<YAML
# Written by scripts/demo-drift.sh: the demo upstream's drift series, one check per release as the daemon runs them.
state_dir: $demo/state
cache_dir: $demo/cache
min_free_bytes: 1000000000
suite: drift-demo
# The QPS lane, at a 15% margin, with the fewest pairs that can give a verdict: 8 blocks (pairs of server instances),
# new instances every sweep, so 2.2 minutes pay for 8 blocks of about 16 s (a sweep of the 2 tests, 10 s, and a
# restart). On this host that calls a 3% step unstable, not ok: the QPS lane cannot see it, and what flags the drift
# is the instructions lane (docs/verdicts.md, "The drift demo").
threshold: 0.85
budget_minutes: 2.2
instance_seconds: 0
# The instructions lane: a 3% step is within 5% of the last good; 10.6.3 is 6% over the base. Counts repeat to about
# 0.1%, so one short run a side is enough.
instruction_counter: callgrind
instructions_threshold: 1.05
instructions_repeats: 1
instructions_events: 20
instructions_warmup_events: 5
quiet_max_wait_seconds: 60
email_to: [performance@example.invalid]
outbox_dir: $demo/outbox
upstreams:
  - name: demo-10.6
    remote: $demo/upstream
    flavor: mariadb
    series: "10.6"
    build_profile: demo
    server_profile: relaxed
YAML
  for line in "$@"; do printf '%s\n' "$line"; done
} >"$config"
q() { node bin/qpswatch.js --config "$config" "$@"; }
q once
q status
q report --series demo-10.6
q report --series demo-10.6 --format html >"$demo/history.html"
echo "HTML history with trend charts: $demo/history.html"
echo "emails (one .eml file each): $demo/outbox"
ls -1 "$demo/outbox" 2>/dev/null || true
