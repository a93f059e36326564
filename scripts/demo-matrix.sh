#!/usr/bin/env bash
# The studies' matrix on this host, scaled down: the matrix suite (1 thread on 1 table, then cores and 4*cores threads
# on 4 tables) under both memory settings, cached and io-bound, one paired session each, between the demo upstream's
# mariadb-10.6.1 and mariadb-10.6.2 (which spends about 3% more CPU per query). Then the series' history: one
# relative-QPS table per level and memory setting. Everything lands under ./var/demo-matrix; about 30 minutes on a
# 2-core host. Extra arguments go to the config as YAML lines, e.g. 'budget_minutes: 20'.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
demo=$PWD/var/demo-matrix
config=$demo/qpswatch.yaml
mkdir -p "$demo"
[ -d "$demo/upstream" ] || node dist/scripts/make-demo-upstream.js "$demo/upstream"
{
  cat <<YAML
# Written by scripts/demo-matrix.sh: the matrix suite under both memory settings on two demo releases.
state_dir: $demo/state
cache_dir: $demo/cache
min_free_bytes: 1000000000
suite: matrix
memory: [cached, io-bound]
# Each of the matrix's loads (about 29 and 114 MiB) is over 3 times this pool: most point reads go to the disk.
io_bound_buffer_pool: 8M
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
start=$(date +%s)
q discover
q build mariadb-10.6.1
q build mariadb-10.6.2
q compare --baseline mariadb-10.6.1 --candidate mariadb-10.6.2
q report --series demo-10.6
echo "demo:matrix took $(( ($(date +%s) - start) / 60 )) minutes"
