#!/usr/bin/env bash
# `npm run down`: stops what `npm run up` started, and nothing else (the processes
# up recorded in $ER_RUN_DIR/pids, then the multi-node engines it recorded in
# $ER_RUN_DIR/engine-pids, once the services using them are gone). Plain bash:
# it needs no npm package.
set -uo pipefail
cd "$(dirname "$0")/.."
ER_RUN_DIR=${ER_RUN_DIR:-.run}

# file: each "name pid" line's process asked to stop, killed when it has not after 15 s.
stop_recorded() {
  local file=$1 name pid signal alive
  [ -f "$file" ] || return 1
  while read -r name pid; do
    # Postgres: a fast shutdown (SIGINT); SIGTERM would wait for every client to leave.
    case $name in pg-*) signal=INT ;; *) signal=TERM ;; esac
    if kill -0 "$pid" 2>/dev/null; then kill "-$signal" "$pid" 2>/dev/null && echo "stopping $name ($pid)"; fi
  done < "$file"
  for _ in $(seq 1 30); do
    alive=0
    while read -r _name pid; do kill -0 "$pid" 2>/dev/null && alive=1; done < "$file"
    [ $alive = 0 ] && break
    sleep 0.5
  done
  while read -r name pid; do kill -0 "$pid" 2>/dev/null && { echo "killing $name ($pid)"; kill -KILL "$pid"; }; done < "$file"
  rm -f "$file"
}

stopped=0
stop_recorded "$ER_RUN_DIR/pids" && stopped=1
stop_recorded "$ER_RUN_DIR/engine-pids" && stopped=1
if [ $stopped = 0 ]; then echo "nothing to stop"; exit 0; fi
echo "stopped"
