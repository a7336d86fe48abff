#!/usr/bin/env bash
# `npm test`: everything CI checks, on a fresh machine or clone. Installs and
# starts what it needs (Postgres, Redis, NATS, npm packages, Debian's Chromium
# for the browser tests), then: lint, typecheck, the vitest suites (unit,
# integration against the real servers, end to end over HTTP, in a browser),
# the OpenAPI lint, the Helm chart checks, the k6 type-check, and the image
# check (the Dockerfile built with podman, every service run from it).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/infra.sh
ensure_all
ensure_chromium

failed=()
step() { # name command...
  local name=$1; shift
  printf '\n== %s\n' "$name"
  if "$@"; then printf '== %s: ok\n' "$name"; else printf '== %s: FAILED\n' "$name"; failed+=("$name"); fi
}

mkdir -p .run
step lint npx eslint --max-warnings 0 .
step typecheck npx tsc -p tsconfig.json
step "OpenAPI lint (Redocly, recommended rules; redocly.yaml)" npx redocly lint
step "k6 scripts type-check" npx tsc -p load-tests/tsconfig.json
step build node scripts/build.mjs
step vitest npx vitest run --reporter=default --reporter=json --outputFile.json=.run/vitest.json "$@"
if [ -x scripts/chart-check.sh ] || [ -f scripts/chart-check.sh ]; then step "helm chart checks" bash scripts/chart-check.sh; fi
# The Dockerfile built with podman and every service run from the image, non-root, read-only root (scripts/image-check.sh).
step "image: build and run every service from it" bash scripts/image-check.sh

# One closing line CI can read: N passed, N failed.
summary=$(node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  try {
    const r = JSON.parse(fs.readFileSync(".run/vitest.json", "utf8"));
    passed = r.numPassedTests; failed = r.numFailedTests + (r.numFailedTestSuites || 0); skipped = r.numPendingTests + (r.numTodoTests || 0);
  } catch { failed = 1; }
  process.stdout.write(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
')
if [ ${#failed[@]} -gt 0 ]; then
  printf '\nfailed steps: %s\n' "${failed[*]}"
fi
printf '\ntests: %s\n' "$summary"
[ ${#failed[@]} -eq 0 ]
