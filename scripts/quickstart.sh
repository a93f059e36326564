#!/usr/bin/env bash
# Compares this host's MariaDB with itself under two server config profiles: relaxed commits against durable ones
# (fsync of the redo log and the binary log at every commit). Prints the relative QPS and per-operation tables.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# Run as root, the benchmarked server runs as the mysql user, which must pass through every folder above the state
# folder: a clone inside a private folder such as /root keeps it out, so the quickstart's state then goes to /var/tmp.
# Any user may create that name in /var/tmp first: it must be a folder of root's, not a link (qpswatch checks too).
if [ "$(id -u)" -eq 0 ] && [ -z "${QPSWATCH_STATE_DIR:-}" ] && id mysql >/dev/null 2>&1 && ! runuser -u mysql -- test -x "$PWD"; then
  export QPSWATCH_STATE_DIR=/var/tmp/qpswatch-quickstart
  if [ -L "$QPSWATCH_STATE_DIR" ] || { [ -e "$QPSWATCH_STATE_DIR" ] && { [ ! -d "$QPSWATCH_STATE_DIR" ] || [ "$(stat -c %u "$QPSWATCH_STATE_DIR")" != 0 ]; }; }; then
    echo "quickstart: $QPSWATCH_STATE_DIR exists and is not a folder of root's (owner $(stat -c %U "$QPSWATCH_STATE_DIR")): another user may have made it; remove it (rm -r $QPSWATCH_STATE_DIR) and run again" >&2
    exit 2
  fi
  echo "quickstart: the server user mysql cannot reach $PWD; the state folder is $QPSWATCH_STATE_DIR" >&2
fi
exec node bin/qpswatch.js --config config/quickstart.yaml compare --baseline relaxed --candidate durable --suite quick "$@"
