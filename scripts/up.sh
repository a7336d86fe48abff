#!/usr/bin/env bash
# `npm run up`: the whole stack on this machine with the demo Record, from a fresh
# Debian machine or a fresh clone. Prints the base URL, a working demo key and
# where to read alert emails.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/infra.sh
source scripts/stack.env.sh
log() { printf '[up] %s\n' "$*" >&2; }

ensure_all
mkdir -p "$ER_RUN_DIR/logs"
bash scripts/down.sh >/dev/null 2>&1 || true

log "building service bundles"
node scripts/build.mjs >/dev/null

if ! psql -h 127.0.0.1 -U postgres -tAc "select 1 from pg_database where datname='$ER_DB'" | grep -q 1; then
  log "creating database $ER_DB"
  psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE \"$ER_DB\""
fi
log "migrating"
node dist/migrate.mjs >/dev/null
log "seeding the demo Record (skipped when already seeded)"
node dist/seed-demo.mjs >&2

[ -f "$ER_RUN_DIR/cursor-secret" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$ER_RUN_DIR/cursor-secret"
export CURSOR_SECRET; CURSOR_SECRET=$(cat "$ER_RUN_DIR/cursor-secret")
# The gateway signs every request it forwards; the services accept nothing else (decision 0313).
# Every service listens on 127.0.0.1 only (LISTEN_HOST's default): nothing but this machine reaches them.
[ -f "$ER_RUN_DIR/internal-signing-key" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$ER_RUN_DIR/internal-signing-key"
export INTERNAL_SIGNING_KEYS; INTERNAL_SIGNING_KEYS=$(cat "$ER_RUN_DIR/internal-signing-key")
export LISTEN_HOST=${LISTEN_HOST:-127.0.0.1}
# Signs (email worker) and verifies (gateway) the one-click unsubscribe links of alert emails.
[ -f "$ER_RUN_DIR/unsubscribe-key" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$ER_RUN_DIR/unsubscribe-key"
export UNSUBSCRIBE_SIGNING_KEY; UNSUBSCRIBE_SIGNING_KEY=$(cat "$ER_RUN_DIR/unsubscribe-key")
# Signs the review console's sessions: a file readable by this user only, never a database row (issue 26).
[ -f "$ER_RUN_DIR/console-session-secret" ] || (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$ER_RUN_DIR/console-session-secret")
export CONSOLE_SESSION_SECRET; CONSOLE_SESSION_SECRET=$(cat "$ER_RUN_DIR/console-session-secret")

# One configuration: every variable the stack runs with goes to $ER_RUN_DIR/stack.env, the services are
# started from that file, and the operator CLI (`npm run -s admin -- …`) reads the same file, so a
# revocation or a release reaches the running stack with no extra variables.
write_stack_env "$ER_RUN_DIR/stack.env"
set -a; source "$ER_RUN_DIR/stack.env"; set +a

start() { # name command...
  local name=$1; shift
  setsid nohup "$@" >"$ER_RUN_DIR/logs/$name.log" 2>&1 < /dev/null &
  echo "$name $!" >> "$ER_RUN_DIR/pids"
}

log "starting the SMTP sink (maildev) on :$MAILDEV_SMTP_PORT, web UI on :$MAILDEV_WEB_PORT"
start maildev node_modules/.bin/maildev --smtp "$MAILDEV_SMTP_PORT" --web "$MAILDEV_WEB_PORT" --ip 127.0.0.1

log "starting the demo source server (DSLD and two retailers for the demo monitor product) on :$DEMO_SOURCES_PORT"
start demo-sources node --enable-source-maps dist/demo-sources.mjs serve

wait_ready() { # name port
  local name=$1 port=$2
  [ "$port" = - ] && return 0 # no HTTP: started is all we can tell
  for _ in $(seq 1 60); do
    if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  log "$name did not become ready; last log lines:"; tail -n 20 "$ER_RUN_DIR/logs/$name.log" >&2; exit 1
}

# The services of the registry, wave by wave: a wave starts once the one before it is ready.
while read -r wave; do
  for entry in $wave; do
    name=${entry%%:*}; port=${entry##*:}
    if [ "$port" = - ]; then start "$name" node --enable-source-maps "dist/$name.mjs"
    else PORT=$port start "$name" node --enable-source-maps "dist/$name.mjs"; fi
  done
  log "waiting for $wave to report ready"
  for entry in $wave; do wait_ready "${entry%%:*}" "${entry##*:}"; done
done <<< "$ER_SERVICE_WAVES"

log "registering the demo sources (first reading dated yesterday)"
node --enable-source-maps dist/demo-sources.mjs register >/dev/null

# A demo organisation on the demo plan, bound to one account, and a key with every scope.
if [ ! -s "$ER_RUN_DIR/demo-org" ] || ! psql -h 127.0.0.1 -U postgres -d "$ER_DB" -tAc "select 1 from organizations where org_id='$(cat "$ER_RUN_DIR/demo-org")'" | grep -q 1; then
  org=$(npm run -s admin -- org create --name "Demo organisation" --plan demo --json | node -e 'process.stdin.on("data",d=>process.stdout.write(JSON.parse(d).org_id))')
  npm run -s admin -- account create --org "$org" --email demo@evidence-record.local --json >/dev/null
  echo "$org" > "$ER_RUN_DIR/demo-org"
fi
org=$(cat "$ER_RUN_DIR/demo-org")
scopes="record:search,products:read,history:read,signals:read,comparisons:create,economics:read,research:read,regulatory:read,category:read,framework:read,ledger:read,watch:manage"
key=$(npm run -s admin -- key issue --org "$org" --scopes "$scopes" --env test --name "npm run up" --json | node -e 'process.stdin.on("data",d=>process.stdout.write(JSON.parse(d).key))')
echo "$key" > "$ER_RUN_DIR/demo-key"

curl -fsS "$PUBLIC_BASE_URL/api/v1/health" >/dev/null
cat <<MSG

Evidence Record is up (demo Record: fictional brands and products).

  Base URL      $PUBLIC_BASE_URL          (REST under /api/v1, MCP at /mcp)
  API key       $key
  Console       $CONSOLE_URL   (review console for curators; sign in with: npm run -s admin -- operator add --name YOU --json)
  Alert emails  http://127.0.0.1:$MAILDEV_WEB_PORT   (maildev, SMTP on :$MAILDEV_SMTP_PORT)
  Logs          $ER_RUN_DIR/logs/

  curl -s $PUBLIC_BASE_URL/api/v1/health
  curl -s -H "Authorization: Bearer $key" $PUBLIC_BASE_URL/api/v1/record/version
  curl -s -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \\
       -d '{"identifier":"Pre-Workout"}' $PUBLIC_BASE_URL/api/v1/products/resolve

  Source monitor: change the demo label (or price) and see a candidate opened within a minute:
  npm run -s demo-sources -- change label

Stop it with: npm run down
MSG
