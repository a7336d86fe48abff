#!/usr/bin/env bash
# `npm test`: everything CI checks, on a fresh machine or clone. Installs and
# starts what it needs (Postgres, Redis, NATS, npm packages, Debian's Chromium
# for the browser tests, Debian's PgBouncer for the pooler tests), then: lint, typecheck, the vitest suites (unit,
# integration against the real servers, end to end over HTTP, in a browser),
# a representative end-to-end set on multi-node engines, the resilience,
# security and fuzz suites (vitest.resilience.config.ts), the OpenAPI lint,
# the Helm chart checks, the k6 type-check, the README's `npm run up` on a
# fresh clone, and the image check (the Dockerfile built
# with podman, every service run from it).
# `npm test -- <paths>` focuses the main vitest step on those paths and skips
# the multi-node step (`npm run test:multi-node` runs all of test/e2e there),
# the resilience step (`npm run test:resilience` runs it alone) and the
# fresh-clone step (`npx vitest run --config vitest.fresh-clone.config.ts`).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/infra.sh
# The packages come later, beside the Debian packages job (below).
ensure_servers

failed=()
# Each step's wall time, printed with its result and again in a table at the end: the whole command has to stay
# under 15 minutes on a 2-core machine, and a CI log should show where its minutes went.
run_started=$SECONDS
timings=()
step() { # name command...
  local name=$1; shift
  local began=$SECONDS result=ok
  printf '\n== %s\n' "$name"
  if ! "$@"; then result=FAILED; failed+=("$name"); fi
  local took=$((SECONDS - began)) where=''
  # A step joined from the background ran from its start, not from the join.
  if [ "${1:-}" = joined ]; then took=$((SECONDS - started_at[$2])); where=' (in the background)'; fi
  printf '== %s: %s (%d s)\n' "$name" "$result" "$took"
  timings+=("$(printf '%5d s  %s%s' "$took" "$name" "$where")")
}
# A command started now on the other core, its output kept in .run/step-<id>.log; `step <name> joined <id>`
# waits for it and reports it like any step, its output printed whole.
declare -A started_pids=() started_at=()
start_in_background() { # id command...
  local id=$1; shift
  ( "$@" >".run/step-$id.log" 2>&1 ) &
  started_pids[$id]=$!
  started_at[$id]=$SECONDS
}
joined() { # id
  wait "${started_pids[$1]}"; local rc=$?
  cat ".run/step-$1.log"
  return "$rc"
}
# A process and every process below it.
process_tree() { # pid
  ps -e -o pid=,ppid= | awk -v root="$1" '{ parent[$1] = $2 } END { for (p in parent) { q = p; while (q != root && (q in parent)) q = parent[q]; if (q == root) print p } }'
}
# A step started in the background at the lowest CPU priority gets a full share from now on (its processes
# and those they start later). Linux's idle class (chrt --idle, SCHED_IDLE) was tried instead of nice 19 on
# 2026-11-27 and not kept: a cold image build there, starved, held up the tests' file system work (1,117 s in
# all on a fresh machine); otherwise single runs went either way (887 s warm with both there, against 906 s;
# 1,033 s cold with only the chart checks there, against 937 s), within what this machine varies run to run.
full_share() { # id
  local tree; tree=$(process_tree "${started_pids[$1]}")
  [ -z "$tree" ] || renice -n 0 -p $tree >/dev/null 2>&1 || true
}

mkdir -p .run
# Debian's Chromium (browser tests) and PgBouncer (pooler tests), installed when missing beside npm ci and every
# step up to the build, none of which needs them; joined before the vitest step. On a machine that has neither,
# the install took 75 s, against 28 s for npm ci (2026-11-27), and npm test waited for it before its first check.
# podman and mmdebstrap are the image check's to install (scripts/image-check.sh), at its low priority.
start_in_background packages ensure_vitest_packages
ensure_node_modules

# Results of this run only: a file left by an earlier run must not be counted.
rm -f .run/vitest.json .run/vitest-resilience.json .run/vitest-multi-node.json
# The client's types and route table are build artifacts (gitignored): npm ci writes them; written
# again here so that the checks below read what the contract generates now.
step "client types (generated from the contract)" npx tsx services/client/scripts/generate.ts
# Lint on the second core while the type checks run on the first (each is one single-threaded process).
start_in_background lint npx eslint --max-warnings 0 .
step typecheck npx tsc -p tsconfig.json
step "OpenAPI lint (Redocly, recommended rules; redocly.yaml)" npx redocly lint
step "k6 scripts type-check" npx tsc -p load-tests/tsconfig.json
step lint joined lint
step build node scripts/build.mjs
step "Debian packages (Chromium, PgBouncer)" joined packages
# The image check in two parts. Its build (the stand-in base, then the Dockerfile: on a machine that has never
# built it, Debian's bootstrap and two npm installs, about 190 s of CPU) starts with the vitest step at the
# lowest CPU priority, so it runs on what the steps from there leave idle (10-16 % of two cores) instead of after
# them (the type checks and lint before it leave none: both cores are theirs); its run (every
# service from the image) waits until the resilience suites are over, when the build gets a full share again.
image_check() {
  nice -n 19 bash scripts/image-check.sh build || return
  # $$ is this script: a run stopped before it says go leaves no check waiting behind it.
  until [ -e .run/image-go ]; do kill -0 $$ 2>/dev/null || return 1; sleep 1; done
  bash scripts/image-check.sh run
}
rm -f .run/image-go
start_in_background image image_check
# The chart checks (helm, kubeconform and node on rendered text, in their own temporary folders) likewise,
# from now on idle CPU; joined after the multi-node step, when a check still going gets its full share.
start_in_background chart nice -n 19 bash scripts/chart-check.sh
step vitest npx vitest run --reporter=default --reporter=json --outputFile.json=.run/vitest.json "$@"
# The representative end-to-end set on the multi-node engines (a Redis Cluster of six nodes, a Postgres primary
# with a streaming standby for the snapshot reads, a three-node NATS JetStream cluster, all started for this
# step on reserved ports): one stack, capabilities through REST and MCP, a watch alert emailed once, a key
# revoked (test/multi-node/representative.multi-node.ts; decision 2360). About a minute; `npm run
# test:multi-node` runs every end-to-end test there, and `npm run up -- --multi-node` itself.
if [ $# -eq 0 ]; then
  step "multi-node engines: a representative end-to-end set" npx vitest run --config vitest.multi-node.config.ts test/multi-node/representative.multi-node.ts \
    --reporter=default --reporter=json --outputFile.json=.run/vitest-multi-node.json
fi
# Joined before the resilience suites, whose fault timings should not share the CPU with them.
full_share chart
step "helm chart checks" joined chart
# Faults (Redis, Postgres, NATS, SMTP, a backend or worker killed), concurrency, the OWASP API Top 10
# security suites and the 10,000-case API fuzzer, each against its own stack of processes; 95-240 s
# on a 2-core machine, depending on the machine (187-241 s on 2026-11-27's). The pinned fuzz regressions already ran in the step above.
if [ $# -eq 0 ]; then
  step "resilience, security and fuzz suites" npx vitest run --config vitest.resilience.config.ts --exclude test/fuzz/regressions.test.ts \
    --reporter=default --reporter=json --outputFile.json=.run/vitest-resilience.json
fi
# The README as written: a fresh `git clone` of HEAD (no node_modules), `npm run up` there, the stack driven as a
# client would, `npm run down` (test/fresh-clone/readme.check.ts; its own database, prefixes and ports, so it runs
# beside a developer's own `npm run up`). About 2 minutes with npm's cache warm.
# The image check (begun at the start) runs meanwhile: the two are independent (their own clone, databases,
# prefixes and ports) and spend much of their time waiting on npm, podman and start-ups. A build still going
# gets its full share of the CPU from here.
full_share image
touch .run/image-go
if [ $# -eq 0 ]; then
  step "the README on a fresh clone: npm run up, drive, npm run down" npx vitest run --config vitest.fresh-clone.config.ts
fi
# The Dockerfile built with podman and every service run from the image, non-root, read-only root (scripts/image-check.sh).
step "image: build and run every service from it" joined image

# One closing line CI can read: N passed, N failed (every vitest step of this run together).
resilience_ran=$([ $# -eq 0 ] && echo 1 || echo 0)
summary=$(RESILIENCE_RAN=$resilience_ran node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  const reports = [".run/vitest.json", ...(process.env.RESILIENCE_RAN === "1" ? [".run/vitest-multi-node.json", ".run/vitest-resilience.json"] : [])];
  for (const file of reports) {
    try {
      const r = JSON.parse(fs.readFileSync(file, "utf8"));
      // A file that failed without a failed test (it did not load, a hook threw) counts once; a failed test is not counted again for its file and describe.
      const brokenFiles = (r.testResults || []).filter((t) => t.status === "failed" && !(t.assertionResults || []).some((a) => a.status === "failed")).length;
      passed += r.numPassedTests; failed += r.numFailedTests + brokenFiles; skipped += r.numPendingTests + (r.numTodoTests || 0);
    } catch { failed += 1; }
  }
  process.stdout.write(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
')
printf '\nsteps (wall time; a background step is timed from its start to its join, beside the others):\n'
printf '%s\n' "${timings[@]}"
printf '%5d s  in all\n' "$((SECONDS - run_started))"
if [ ${#failed[@]} -gt 0 ]; then
  printf '\nfailed steps: %s\n' "${failed[*]}"
fi
printf '\ntests: %s\n' "$summary"
[ ${#failed[@]} -eq 0 ]
