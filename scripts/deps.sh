#!/usr/bin/env bash
# Runs before every `npm run` script that needs the npm packages (package.json):
# installs them when node_modules is missing or stale against package-lock.json,
# and does nothing else (a few tens of milliseconds when they are current).
# Prints nothing on stdout, which the operator CLI keeps for its one JSON line.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/infra.sh
ensure_node_modules
