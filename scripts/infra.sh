#!/usr/bin/env bash
# Makes sure PostgreSQL, Redis and NATS (JetStream) run on this machine.
# Installs them from Debian's packages when absent and starts them when stopped.
# Sourced by up.sh, test.sh and .ci/run; prints what it did on stderr.
set -euo pipefail

PGHOST_=${PGHOST_:-127.0.0.1}
log() { printf '[infra] %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Waits for another apt run's lock (npm test installs its packages beside npm ci) instead of failing on it.
APT_WAIT=(-o DPkg::Lock::Timeout=600)
apt_install() { # [apt-get install option…] package…
  local options=()
  while [[ ${1:-} == -* ]]; do options+=("$1"); shift; done
  log "installing $* from Debian packages"
  # The package lists are read once per shell, however many installs follow.
  if [ -z "${APT_LISTS_READ:-}" ]; then as_root apt-get "${APT_WAIT[@]}" update -qq >/dev/null; APT_LISTS_READ=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get "${APT_WAIT[@]}" install -y -qq "${options[@]}" "$@" >/dev/null
}

tcp_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for() { # name host port seconds
  for _ in $(seq 1 "$4"); do tcp_open "$2" "$3" && return 0; sleep 1; done
  log "$1 did not come up on $2:$3"; return 1
}

ensure_postgres() {
  if tcp_open "$PGHOST_" 5432 && pg_isready -q -h "$PGHOST_" 2>/dev/null; then return 0; fi
  command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql postgresql-client
  local version; version=$(ls /etc/postgresql | sort -V | tail -1)
  log "starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_for PostgreSQL "$PGHOST_" 5432 30
  # Trust auth on loopback, as the local stack and the tests expect.
  if ! psql -h "$PGHOST_" -U postgres -c 'select 1' >/dev/null 2>&1; then
    local hba="/etc/postgresql/$version/main/pg_hba.conf"
    log "enabling trust auth for loopback in $hba"
    sed -i 's/^\(host\s\+all\s\+all\s\+127.0.0.1\/32\s\+\)\S\+/\1trust/; s/^\(host\s\+all\s\+all\s\+::1\/128\s\+\)\S\+/\1trust/; s/^\(local\s\+all\s\+postgres\s\+\)\S\+/\1trust/' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  fi
}

ensure_redis() {
  if redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then return 0; fi
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  log "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for Redis 127.0.0.1 6379 20
}

ensure_nats() {
  if tcp_open 127.0.0.1 4222; then return 0; fi
  [ -x /usr/sbin/nats-server ] || command -v nats-server >/dev/null 2>&1 || apt_install nats-server
  local bin; bin=$(command -v nats-server || echo /usr/sbin/nats-server)
  log "starting NATS with JetStream"
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec "$bin" -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_for NATS 127.0.0.1 4222 20
}

# The npm packages package-lock.json pins, installed when node_modules is missing or holds
# anything else (scripts/node-modules-current.mjs, plain Node). One install at a time: two
# `npm run` commands started together on a fresh clone wait for the same install.
ensure_node_modules() {
  node scripts/node-modules-current.mjs && return 0
  mkdir -p .run
  (
    flock 9
    node scripts/node-modules-current.mjs && exit 0
    log "installing the npm packages package-lock.json pins (npm ci)"
    npm ci --no-audit --no-fund --prefer-offline >&2
  ) 9>.run/npm-ci.lock
}

# podman and mmdebstrap, which build and unpack the image in the image check (scripts/image-check.sh).
ensure_image_tools() {
  local missing=()
  command -v podman >/dev/null 2>&1 || missing+=(podman)
  command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
  if [ ${#missing[@]} -gt 0 ]; then apt_install --no-install-recommends "${missing[@]}"; fi
}

# What the vitest step needs from Debian beyond the servers, in one apt-get run (each run of apt-get install
# unpacks and then runs the triggers of everything it installed):
#   * Chromium, for the browser tests: playwright-core never downloads a browser of its own, and
#     test/support/browser.ts launches this binary;
#   * PgBouncer, for the tests that run the services through a pooler in transaction mode
#     (test/support/postgres-replica.ts starts its own, as the postgres user). Debian's package is enough:
#     decision 2320 says which version named statements need. Where packages start their services (systemd),
#     Debian's own instance listens on 127.0.0.1:6432 with no databases; the tests never use it.
ensure_vitest_packages() {
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/sbin/pgbouncer ] || command -v pgbouncer >/dev/null 2>&1 || missing+=(pgbouncer)
  if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
  [ -x /usr/bin/chromium ] || { log "chromium did not install to /usr/bin/chromium"; return 1; }
}

# Everything npm test needs from Debian beyond the servers (one read of the package lists for all of them).
# npm test itself installs the two halves apart: the image tools in the image check, off its critical path.
ensure_test_packages() {
  ensure_vitest_packages
  ensure_image_tools
}

# The three servers every stack and test run talks to.
ensure_servers() {
  ensure_postgres
  ensure_redis
  ensure_nats
}

ensure_all() {
  ensure_servers
  ensure_node_modules
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  cd "$(dirname "$0")/.."
  ensure_all
  log "PostgreSQL, Redis and NATS are running"
fi
