#!/usr/bin/env bash
# Compares this host's MariaDB with itself under two server config profiles: relaxed commits against durable ones
# (fsync of the redo log and the binary log at every commit). Prints the relative QPS and per-operation tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
exec node bin/qpswatch.js --config config/quickstart.yaml compare --baseline relaxed --candidate durable --suite quick "$@"
