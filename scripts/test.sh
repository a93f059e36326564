#!/usr/bin/env bash
# The whole test suite: the lint, then unit tests and integration tests against real mariadbd and sysbench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# The lint (eslint.config.js, then prettier --check): a floating or misused promise, a line over 120 characters or a
# file prettier would change fails the run before any test starts.
npm run --silent lint
mapfile -t files < <(find dist/test -name '*.test.js' | sort)
exec node --test --test-reporter=spec "${files[@]}"
