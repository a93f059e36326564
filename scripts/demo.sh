#!/usr/bin/env bash
# The upstream walk-through on this host: make the demo upstream (a git repository whose mariadb-10.11.x tags build
# with cmake in seconds), discover its releases, build two of them (one carries a real slowdown: fsync at every
# commit), and compare them on the quick suite. Everything lands under ./var/demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
demo=$PWD/var/demo
config=$demo/qpswatch.yaml
[ -d "$demo/upstream" ] || node dist/scripts/make-demo-upstream.js "$demo/upstream"
cat >"$config" <<YAML
# Written by scripts/demo.sh: the demo upstream, built with the demo build profile, run with the relaxed profile.
state_dir: $demo/state
cache_dir: $demo/cache
min_free_bytes: 1000000000
upstreams:
  - name: demo
    remote: $demo/upstream
    flavor: mariadb
    series: "10.11"
    build_profile: demo
    server_profile: relaxed
YAML
q() { node bin/qpswatch.js --config "$config" "$@"; }
q discover
q build mariadb-10.11.2
q build mariadb-10.11.3
q build mariadb-10.11.4 || echo "(mariadb-10.11.4 fails to build on purpose: its error lines are above)"
# The default paired design: both servers up, every test in alternating pairs until it is decided or the quick
# suite's budget is spent. The slow tag's write tests come out as regressions.
q compare --baseline mariadb-10.11.2 --candidate mariadb-10.11.3 --suite quick "$@"
