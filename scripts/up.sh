#!/usr/bin/env bash
# `npm run up`: the whole stack on this machine with the demo Record, from a fresh
# Debian machine or a fresh clone (no node_modules) or a clone whose node_modules
# is stale. Prints the base URL, a working demo key and where to read alert emails.
#
# Every port it uses can be moved (README, "Two commands"): ER_PORT_OFFSET=N moves
# them all by N; GATEWAY_PORT, RECORD_PORT, … (each service's <NAME>_PORT),
# MAILDEV_SMTP_PORT, MAILDEV_WEB_PORT and DEMO_SOURCES_PORT move one. ER_DB,
# REDIS_PREFIX, NATS_PREFIX and ER_RUN_DIR keep a second stack's data apart.
set -euo pipefail
# Everything up writes (secrets, stack.env, the demo key, logs) is its owner's only, from its creation.
umask 077
cd "$(dirname "$0")/.."
source scripts/infra.sh
source scripts/stack.env.sh
source scripts/engines.sh
log() { printf '[up] %s\n' "$*" >&2; }

usage() { echo "usage: npm run up [-- --multi-node]" >&2; }
for arg in "$@"; do
  case $arg in
    -h|--help) usage; exit 0 ;;
    # Its own Redis Cluster, Postgres primary and standby and NATS cluster on loopback (scripts/engines.sh, decision 2360).
    --multi-node) export ER_ENGINES=multi-node ;;
    *) echo "npm run up: unknown option $arg" >&2; usage; exit 2 ;;
  esac
done

# ---- the steps -----------------------------------------------------------------------

build() {
  log "building service bundles"
  node scripts/build.mjs >/dev/null
}

prepare_database() {
  if ! psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "select 1 from pg_database where datname='$ER_DB'" | grep -q 1; then
    log "creating database $ER_DB"
    psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE \"$ER_DB\""
  fi
  log "migrating"
  node dist/migrate.mjs >/dev/null
  log "seeding the demo Record (skipped when already seeded)"
  node dist/seed-demo.mjs >&2
}

start() { # name command...: in its own session, from the environment stack.env gave this shell
  local name=$1; shift
  setsid nohup "$@" >"$ER_RUN_DIR/logs/$name.log" 2>&1 < /dev/null &
  echo "$name $!" >> "$ER_RUN_DIR/pids"
}

wait_answering() { # name url [curl option…]: until the URL answers as the options ask (-f: with a success status)
  local name=$1 url=$2; shift 2
  for _ in $(seq 1 60); do
    if curl -sS -o /dev/null "$@" "$url" 2>/dev/null; then return 0; fi
    sleep 0.5
  done
  log "$name did not become ready; last log lines:"; tail -n 20 "$ER_RUN_DIR/logs/$name.log" >&2; exit 1
}

wait_ready() { # name port
  [ "$2" = - ] && return 0 # no HTTP: started is all we can tell
  wait_answering "$1" "http://127.0.0.1:$2/readyz" -f
}

start_local_sources() {
  log "starting the SMTP sink (maildev) on :$MAILDEV_SMTP_PORT, web UI on :$MAILDEV_WEB_PORT"
  start maildev node_modules/.bin/maildev --smtp "$MAILDEV_SMTP_PORT" --web "$MAILDEV_WEB_PORT" --ip 127.0.0.1
  log "starting the demo source server (DSLD and two retailers for the demo monitor product) on :$DEMO_SOURCES_PORT"
  start demo-sources node --enable-source-maps dist/demo-sources.mjs serve
  # Registering reads from it next: wait until it answers (any status; it has no readiness path).
  wait_answering demo-sources "http://127.0.0.1:$DEMO_SOURCES_PORT/robots.txt"
}

# The services of the registry, wave by wave: a wave starts once the one before it is ready.
start_services() {
  local wave entry name port
  while read -r wave; do
    for entry in $wave; do
      name=${entry%%:*}; port=${entry##*:}
      if [ "$port" = - ]; then start "$name" node --enable-source-maps "dist/$name.mjs"
      else PORT=$port start "$name" node --enable-source-maps "dist/$name.mjs"; fi
    done
    log "waiting for $wave to report ready"
    for entry in $wave; do wait_ready "${entry%%:*}" "${entry##*:}"; done
  done <<< "$ER_SERVICE_WAVES"
}

register_demo_sources() {
  log "registering the demo sources (first reading dated yesterday)"
  node --enable-source-maps dist/demo-sources.mjs register >/dev/null
}

# A demo organisation on the demo plan, bound to one account, and a key with every scope.
issue_demo_key() {
  local org scopes
  if [ ! -s "$ER_RUN_DIR/demo-org" ] || ! psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d "$ER_DB" -tAc "select 1 from organizations where org_id='$(cat "$ER_RUN_DIR/demo-org")'" | grep -q 1; then
    org=$(node dist/admin.mjs org create --name "Demo organisation" --plan demo --json | node -e 'process.stdin.on("data",d=>process.stdout.write(JSON.parse(d).org_id))')
    node dist/admin.mjs account create --org "$org" --email demo@evidence-record.local --json >/dev/null
    echo "$org" > "$ER_RUN_DIR/demo-org"
  fi
  org=$(cat "$ER_RUN_DIR/demo-org")
  scopes="record:search,products:read,history:read,signals:read,comparisons:create,economics:read,research:read,regulatory:read,category:read,framework:read,ledger:read,watch:manage"
  DEMO_KEY=$(node dist/admin.mjs key issue --org "$org" --scopes "$scopes" --env test --name "npm run up" --json | node -e 'process.stdin.on("data",d=>process.stdout.write(JSON.parse(d).key))')
  rm -f "$ER_RUN_DIR/demo-key"
  echo "$DEMO_KEY" > "$ER_RUN_DIR/demo-key"
}

print_summary() {
  curl -fsS "$PUBLIC_BASE_URL/api/v1/health" >/dev/null
  cat <<MSG

Evidence Record is up (demo Record: fictional brands and products).
$(engines_line)

  Base URL      $PUBLIC_BASE_URL          (REST under /api/v1, MCP at /mcp)
  API key       $DEMO_KEY
  Console       http://127.0.0.1:$CONSOLE_PORT   (review console for curators; sign in with: npm run -s admin -- operator add --name YOU --json)
  Alert emails  http://127.0.0.1:$MAILDEV_WEB_PORT   (maildev, SMTP on :$MAILDEV_SMTP_PORT)
  Config        $ER_RUN_DIR/stack.env   (what every process here runs with; the operator CLI reads it: npm run -s admin -- config show --json)
  Logs          $ER_RUN_DIR/logs/

  curl -s $PUBLIC_BASE_URL/api/v1/health
  curl -s -H "Authorization: Bearer $DEMO_KEY" $PUBLIC_BASE_URL/api/v1/record/version
  curl -s -H "Authorization: Bearer $DEMO_KEY" -H 'Content-Type: application/json' \\
       -d '{"identifier":"Pre-Workout"}' $PUBLIC_BASE_URL/api/v1/products/resolve

  Source monitor: change the demo label (or price) and see a candidate opened within a minute:
  npm run -s demo-sources -- change label

Stop it with: npm run down
MSG
}

# ---- the stack on this machine, one process per service ------------------------------------

# Postgres, Redis, NATS and the npm packages first: every step below runs node with them.
ensure_all
configure_stack
mkdir -p "$ER_RUN_DIR/logs"
bash scripts/down.sh >/dev/null 2>&1 || true
# The Postgres that up creates the database in: the machine's, or the multi-node primary.
PG_PORT=5432
if [ "${ER_ENGINES:-single-node}" = multi-node ]; then
  start_multi_node_engines
  PG_PORT=$PG_PRIMARY_PORT
fi
build
prepare_database
start_local_sources
# Before the services: a running monitor leases a source as soon as it is added (its first check is due at once)
# and would read the demo label today, before the first reading dated yesterday; a label changed today would then
# be a change of the same day, deferred to tomorrow (decision 1007), and `demo-sources change label` would open no
# candidate. Registering needs only Postgres and the demo source server.
register_demo_sources
start_services
issue_demo_key
print_summary
