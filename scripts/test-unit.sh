#!/usr/bin/env bash
# The unit tests alone, in about a minute: no server, no sysbench run, no lint (npm run lint). Arguments name rooms
# (folders of test/unit, e.g. `npm run test:unit -- store report`) to run only their tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
dirs=()
for room in "$@"; do
  if [ ! -d "dist/test/unit/$room" ]; then
    echo "test:unit: no room \"$room\" under test/unit: use one of $(find test/unit -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' ')" >&2
    exit 2
  fi
  dirs+=("dist/test/unit/$room")
done
[ ${#dirs[@]} -gt 0 ] || dirs=(dist/test/unit)
# Two files at a time, as npm test runs them (test/helpers/host-share.ts keeps the timed ones alone).
exec node --import ./dist/test/helpers/host-share-hook.js dist/test/helpers/run-tests.js "${dirs[@]}"
