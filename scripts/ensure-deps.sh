#!/usr/bin/env bash
# Installs what qpswatch and its tests need when it is missing: Debian packages (as root) and npm packages, then
# compiles the TypeScript. Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
have mariadbd || missing+=(mariadb-server)
have sysbench || missing+=(sysbench)
have iostat || missing+=(sysstat)
have git || missing+=(git)
# Building releases (the demo upstream in tests and the quickstart of upstream builds).
have cmake || missing+=(cmake)
have ccache || missing+=(ccache)
{ have gcc && have g++ && have make; } || missing+=(build-essential)
have ninja || missing+=(ninja-build)
have xz || missing+=(xz-utils)
# promtool checks and unit-tests the Prometheus files under grafana/prometheus; its package's service is not started.
have promtool || missing+=(prometheus)
# qpswatch profile: perf samples the servers with call graphs; gdb is the fallback (stack samples).
have perf || missing+=(linux-perf)
have gdb || missing+=(gdb)
# The instructions lane counts instructions per query under valgrind's callgrind where the host has no PMU.
have valgrind || missing+=(valgrind)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "qpswatch needs these Debian packages: ${missing[*]}" >&2
    echo "install them as root: apt-get install ${missing[*]}" >&2
    exit 2
  fi
  echo "installing Debian packages: ${missing[*]}" >&2
  # Packages must not start their own services (a system mariadbd would share the host with the benchmark).
  policy=/usr/sbin/policy-rc.d
  made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made_policy=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ "$made_policy" -eq 1 ] && rm -f "$policy"
fi

# npm ci when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm packages" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# QPSWATCH_LINT_BESIDE_BUILD=1 (scripts/test.sh): the lint runs beside the build; each is one process on one core.
# Both must pass; the lint reads no compiled file (eslint and prettier leave dist/ alone).
lint_pid=
if [ "${QPSWATCH_LINT_BESIDE_BUILD:-}" = 1 ]; then
  npm run --silent lint &
  lint_pid=$!
fi

# An incremental build (tsconfig's incremental: only what changed is compiled again). A compiled file whose source is
# gone would still run as a test or a command, so those are removed first.
if [ -d dist ]; then
  while IFS= read -r -d '' js; do
    rel=${js#dist/}
    [ -f "${rel%.js}.ts" ] || rm -f -- "$js" "$js.map"
  done < <(find dist -name '*.js' -print0)
fi
build=0
npx tsc -p . || build=$?
lint=0
[ -z "$lint_pid" ] || wait "$lint_pid" || lint=$?
[ "$build" -eq 0 ] || exit "$build"
exit "$lint"
