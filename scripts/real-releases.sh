#!/usr/bin/env bash
# npm run real-releases -- [options]: real MariaDB releases built from their source tarballs, end to end (see --help).
# Installs and compiles what is missing first; the script itself is dist/scripts/real-releases.js.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
exec node dist/scripts/real-releases.js "$@"
