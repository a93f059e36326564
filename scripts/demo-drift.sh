#!/usr/bin/env bash
# The drift walk-through on this host: the demo upstream's 10.6 series, whose every release makes the server spend
# about 3% more CPU per query than the one before. No single check sees a loss that size against the 5% margin;
# qpswatch chains the checks back to the series' base, confirms the drift with a session of the release directly
# against the base, and sends one drift email (an .eml file in the outbox folder). Everything lands under
# ./var/demo-drift; the daemon's own cycle (`qpswatch once`) does the work. About 40 minutes on a 2-core host.
# Extra arguments go to the config as YAML lines, e.g. 'budget_minutes: 12' for a noisy host.
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
