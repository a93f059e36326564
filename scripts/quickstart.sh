#!/usr/bin/env bash
# Compares this host's MariaDB with itself under two server config profiles: relaxed commits against durable ones
# (fsync of the redo log and the binary log at every commit). Prints the relative QPS and per-operation tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# Run as root, the benchmarked server runs as the mysql user, which must pass through every folder above the state
# folder: a clone inside a private folder such as /root keeps it out, so the quickstart's state then goes to /var/tmp.
if [ "$(id -u)" -eq 0 ] && [ -z "${QPSWATCH_STATE_DIR:-}" ] && id mysql >/dev/null 2>&1 && ! runuser -u mysql -- test -x "$PWD"; then
  export QPSWATCH_STATE_DIR=/var/tmp/qpswatch-quickstart
  echo "quickstart: the server user mysql cannot reach $PWD; the state folder is $QPSWATCH_STATE_DIR" >&2
fi
exec node bin/qpswatch.js --config config/quickstart.yaml compare --baseline relaxed --candidate durable --suite quick "$@"
