#!/usr/bin/env bash
# The whole test suite: unit tests and integration tests against real mariadbd and sysbench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
mapfile -t files < <(find dist/test -name '*.test.js' | sort)
exec node --test --test-reporter=spec "${files[@]}"
