#!/usr/bin/env bash
# Runs one benchmark script: `bash scripts/bench.sh NAME [options]` installs and compiles what is missing, then runs
# dist/scripts/bench-NAME.js with the options. Benchmarks are scripts, not timed tests: they print figures for a person.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  echo "usage: bash scripts/bench.sh NAME [options]   (NAME: $(ls scripts/bench-*.ts 2>/dev/null | sed 's|scripts/bench-||; s|\.ts$||' | paste -sd' '))" >&2
  exit 2
fi
name=$1
shift
if [ ! -f "scripts/bench-$name.ts" ]; then
  echo "no benchmark '$name': there is no scripts/bench-$name.ts (have: $(ls scripts/bench-*.ts 2>/dev/null | sed 's|scripts/bench-||; s|\.ts$||' | paste -sd' '))" >&2
  exit 2
fi

bash scripts/ensure-deps.sh
exec node "dist/scripts/bench-$name.js" "$@"
