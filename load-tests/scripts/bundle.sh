#!/usr/bin/env bash
# Bundle every scenario into one self-contained ES module per scenario
# (lib/common.ts inlined, types stripped, k6/* left as imports), for k6
# versions without TypeScript support and for k6-operator ConfigMaps, whose
# keys are flat file names (no ../lib/ directory).
#
#   bash load-tests/scripts/bundle.sh            # -> load-tests/dist/*.js
#   bash load-tests/scripts/bundle.sh /tmp/k6js  # -> /tmp/k6js/*.js
#
# Uses the esbuild already in the repo's devDependencies.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$here/dist}"
mkdir -p "$out"
cd "$here/.."
npx --no-install esbuild "$here"/scenarios/*.ts \
  --bundle --format=esm --platform=neutral --target=es2020 \
  --external:k6 '--external:k6/*' \
  --outdir="$out" --log-level=warning
ls -1 "$out"/*.js
