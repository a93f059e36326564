#!/usr/bin/env bash
# The whole test suite: the lint, then unit tests and integration tests against real mariadbd and sysbench.
set -euo pipefail
cd "$(dirname "$0")/.."
# The lint (eslint.config.js, then prettier --check) runs beside the TypeScript build, once the packages are there
# (on this 2-core host the two took 58 s and 34 s one after the other): a floating or misused promise, a line over
# 120 characters or a file prettier would change fails the run before any test starts.
QPSWATCH_LINT_BESIDE_BUILD=1 bash scripts/ensure-deps.sh
# Two test files at a time. Each first takes its share of the host (test/helpers/host-share.ts): the files whose
# assertions depend on measured performance, or that use something host-wide, hold it alone and run with nothing
# beside them; the others run two at a time. run-tests.js starts the shared files first and the ALONE ones last
# (node --test would sort them by name and mix the two).
exec node --import ./dist/test/helpers/host-share-hook.js dist/test/helpers/run-tests.js
