# The multi-node engines of `npm run up -- --multi-node` (sourced by up.sh; decision 2360), on
# loopback, each in a folder under $ER_RUN_DIR/engines, each process recorded in
# $ER_RUN_DIR/engine-pids, which `npm run down` stops after the services:
#
#   - a Redis Cluster of six nodes, three masters and three replicas (REDIS_NODE_1_PORT … _6_PORT,
#     7001–7006; each node's cluster bus on its port + 10000), rebuilt empty on every start: Redis holds
#     rate windows, budgets and caches, nothing the Record needs back;
#   - a PostgreSQL 15 primary (PG_PRIMARY_PORT, 5441) with a streaming standby (PG_STANDBY_PORT, 5442)
#     made from it by pg_basebackup; both keep their data between starts, as the single-node one does;
#   - a three-node NATS JetStream cluster (NATS_NODE_n_PORT 4231–4233, monitoring NATS_MONITOR_n_PORT
#     8231–8233, routes NATS_ROUTE_n_PORT 6231–6233), keeping its streams between starts.
#
# The ports come from stack.env (scripts/registry/stack-env.ts: ER_PORT_OFFSET and <NAME>_PORT move
# them as they move every other port of the stack). Postgres refuses to run as root: under root the
# Postgres processes run as the `postgres` user (Debian's package makes it), which may traverse the run
# directory (group postgres, mode 710) and owns only its data folders.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

engine_log() { printf '[up] %s\n' "$*" >&2; }

# name command...: in its own session, recorded for `npm run down`.
start_engine() {
  local name=$1; shift
  setsid nohup "$@" >"$ER_RUN_DIR/logs/$name.log" 2>&1 < /dev/null &
  echo "$name $!" >> "$ER_RUN_DIR/engine-pids"
}

# seconds probe...: true once the probe succeeds, false when the time is up.
engine_wait() {
  local seconds=$1; shift
  for _ in $(seq 1 $((seconds * 4))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
  return 1
}

engine_failed() { # name: what it printed last, then stop
  engine_log "$1 did not come up; last log lines:"; tail -n 20 "$ER_RUN_DIR/logs/$1.log" >&2; exit 1
}

# ---- Redis Cluster ---------------------------------------------------------------------------

redis_node_ports() { local n; for n in 1 2 3 4 5 6; do local v="REDIS_NODE_${n}_PORT"; echo "${!v}"; done; }

cluster_ok() { redis-cli -h 127.0.0.1 -p "$1" cluster info | grep -q '^cluster_state:ok'; }

start_redis_cluster() {
  local port nodes=()
  rm -rf "$ENGINES_DIR/redis"
  for port in $(redis_node_ports); do
    mkdir -p "$ENGINES_DIR/redis/$port"
    # A node fails over once the others have not heard from it for 5 s (cluster-node-timeout).
    start_engine "redis-$port" redis-server --port "$port" --bind 127.0.0.1 --protected-mode yes \
      --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 5000 \
      --dir "$ENGINES_DIR/redis/$port" --save "" --appendonly no
    nodes+=("127.0.0.1:$port")
  done
  for port in $(redis_node_ports); do engine_wait 20 redis-cli -h 127.0.0.1 -p "$port" ping || engine_failed "redis-$port"; done
  engine_log "forming the Redis Cluster (three masters, three replicas) on ${nodes[*]}"
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes >"$ER_RUN_DIR/logs/redis-cluster-create.log" 2>&1 \
    || { engine_log "redis-cli --cluster create failed:"; tail -n 20 "$ER_RUN_DIR/logs/redis-cluster-create.log" >&2; exit 1; }
  for port in $(redis_node_ports); do engine_wait 30 cluster_ok "$port" || engine_failed "redis-$port"; done
  # Every replica in sync with its master, so that a master lost at once has a replica ready.
  engine_wait 30 replicas_in_sync 3 || { engine_log "the Redis Cluster's replicas did not sync with their masters"; exit 1; }
}

replicas_in_sync() { # count: that many nodes are replicas whose link to their master is up
  local port n=0
  for port in $(redis_node_ports); do
    redis-cli -h 127.0.0.1 -p "$port" info replication | tr -d '\r' | grep -q '^master_link_status:up' && n=$((n + 1))
  done
  [ "$n" -eq "$1" ]
}

# ---- PostgreSQL primary and streaming standby -----------------------------------------------------

# As the Postgres processes' user: `postgres` under root (Postgres refuses root), else the caller.
# setpriv execs what it runs (no process in between), so a recorded pid is the server's own.
as_pg_prefix=()
[ "$(id -u)" = 0 ] && as_pg_prefix=(setpriv --reuid=postgres --regid=postgres --init-groups --)
as_pg() { "${as_pg_prefix[@]}" "$@"; }

pg_ready() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$1" -U postgres -d postgres; }

# name data-dir port [setting...]: the postgres server itself (no wrapper), so the pid recorded is the postmaster's.
start_pg() {
  local name=$1 dir=$2 port=$3; shift 3
  local settings=() s
  for s in "$@"; do settings+=(-c "$s"); done
  start_engine "$name" "${as_pg_prefix[@]}" "$PG_BIN/postgres" -D "$dir" -c "port=$port" -c listen_addresses=127.0.0.1 -c unix_socket_directories= \
    -c wal_level=replica -c max_wal_senders=10 -c hot_standby=on -c hot_standby_feedback=on -c max_connections=200 "${settings[@]}"
  engine_wait 60 pg_ready "$port" || engine_failed "$name"
}

start_postgres_pair() {
  local primary=$ENGINES_DIR/pg-primary standby=$ENGINES_DIR/pg-standby
  [ -x "$PG_BIN/initdb" ] || { engine_log "no PostgreSQL 15 binaries in $PG_BIN (Debian's postgresql-15; PG_BIN names another folder)"; exit 1; }
  if [ "$(id -u)" = 0 ]; then
    # The postgres user passes through the run directory to its own folders, and sees nothing else there.
    chgrp postgres "$ER_RUN_DIR" "$ENGINES_DIR" && chmod 710 "$ER_RUN_DIR" "$ENGINES_DIR"
  fi
  if [ ! -s "$primary/PG_VERSION" ]; then
    engine_log "creating the Postgres primary's cluster in $primary"
    rm -rf "$primary" "$standby"
    mkdir -p "$primary"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$primary"
    chmod 700 "$primary"
    # Trust on loopback, as the machine's Postgres has it for the local stack; replication too.
    as_pg "$PG_BIN/initdb" -D "$primary" -U postgres --auth=trust -E UTF8 --no-locale >"$ER_RUN_DIR/logs/pg-initdb.log" 2>&1 \
      || { engine_log "initdb failed:"; tail -n 20 "$ER_RUN_DIR/logs/pg-initdb.log" >&2; exit 1; }
  fi
  start_pg pg-primary "$primary" "$PG_PRIMARY_PORT"
  if [ ! -s "$standby/PG_VERSION" ]; then
    engine_log "making the streaming standby from the primary (pg_basebackup)"
    rm -rf "$standby"; mkdir -p "$standby"; [ "$(id -u)" = 0 ] && chown postgres:postgres "$standby"
    chmod 700 "$standby"
    # -R writes standby.signal and primary_conninfo: it streams from the primary from its first start.
    as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PG_PRIMARY_PORT" -U postgres -D "$standby" -R -X stream >"$ER_RUN_DIR/logs/pg-basebackup.log" 2>&1 \
      || { engine_log "pg_basebackup failed:"; tail -n 20 "$ER_RUN_DIR/logs/pg-basebackup.log" >&2; exit 1; }
  fi
  # Where the primary is now (its port may have moved since the standby was made).
  start_pg pg-standby "$standby" "$PG_STANDBY_PORT" "primary_conninfo=host=127.0.0.1 port=$PG_PRIMARY_PORT user=postgres application_name=pg-standby"
  engine_wait 30 bash -c "psql -h 127.0.0.1 -p $PG_PRIMARY_PORT -U postgres -d postgres -tAc \"select count(*) from pg_stat_replication where state='streaming'\" | grep -qx 1" \
    || { engine_log "the standby on :$PG_STANDBY_PORT is not streaming from the primary"; tail -n 20 "$ER_RUN_DIR/logs/pg-standby.log" >&2; exit 1; }
}

# ---- NATS JetStream cluster ------------------------------------------------------------------------

start_nats_cluster() {
  local n routes="" v
  for n in 1 2 3; do v="NATS_ROUTE_${n}_PORT"; routes+="${routes:+, }nats-route://127.0.0.1:${!v}"; done
  for n in 1 2 3; do
    local port="NATS_NODE_${n}_PORT" monitor="NATS_MONITOR_${n}_PORT" route="NATS_ROUTE_${n}_PORT" dir="$ENGINES_DIR/nats/n$n"
    mkdir -p "$dir/store"
    cat > "$dir/nats.conf" <<CONF
server_name: er-n$n
listen: 127.0.0.1:${!port}
http: 127.0.0.1:${!monitor}
jetstream { store_dir: "$dir/store" }
cluster {
  name: er-local
  listen: 127.0.0.1:${!route}
  routes: [ $routes ]
}
CONF
    start_engine "nats-n$n" nats-server -c "$dir/nats.conf"
  done
  # Ready once each node answers its health check with JetStream on (a meta leader elected).
  for n in 1 2 3; do
    v="NATS_MONITOR_${n}_PORT"
    engine_wait 60 curl -fsS "http://127.0.0.1:${!v}/healthz" || engine_failed "nats-n$n"
  done
  v="NATS_MONITOR_1_PORT"
  engine_wait 60 bash -c "curl -fsS 'http://127.0.0.1:${!v}/jsz' | grep -q '\"leader\"'" || engine_failed nats-n1
}

# ---- all of them -----------------------------------------------------------------------------------

start_multi_node_engines() {
  # An absolute path: the engines' configuration names folders in it.
  ENGINES_DIR=$(cd "$ER_RUN_DIR" && pwd)/engines
  mkdir -p "$ENGINES_DIR"
  engine_log "starting the multi-node engines under $ENGINES_DIR"
  start_redis_cluster
  start_postgres_pair
  start_nats_cluster
}

# The line up prints naming the engines the stack runs on.
engines_line() {
  if [ "${ER_ENGINES:-single-node}" = multi-node ]; then
    echo "Engines: Redis Cluster on 127.0.0.1 ports $(redis_node_ports | paste -sd, -) (3 masters, 3 replicas) · PostgreSQL primary 127.0.0.1:$PG_PRIMARY_PORT, streaming standby 127.0.0.1:$PG_STANDBY_PORT (snapshot reads) · NATS JetStream cluster on 127.0.0.1 ports $NATS_NODE_1_PORT,$NATS_NODE_2_PORT,$NATS_NODE_3_PORT (streams at $NATS_STREAM_REPLICAS replicas)"
  else
    echo "Engines: Redis 127.0.0.1:6379 · PostgreSQL 127.0.0.1:5432 · NATS JetStream 127.0.0.1:4222 (one node each; npm run up -- --multi-node for clusters)"
  fi
}
