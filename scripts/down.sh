#!/usr/bin/env bash
# `npm run down`: stops what `npm run up` started, and nothing else (the processes
# up recorded in $ER_RUN_DIR/pids). Plain bash: it needs no npm package.
set -uo pipefail
cd "$(dirname "$0")/.."
ER_RUN_DIR=${ER_RUN_DIR:-.run}
pids_file="$ER_RUN_DIR/pids"
[ -f "$pids_file" ] || { echo "nothing to stop"; exit 0; }
while read -r name pid; do
  if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null && echo "stopping $name ($pid)"; fi
done < "$pids_file"
for _ in $(seq 1 30); do
  alive=0
  while read -r _name pid; do kill -0 "$pid" 2>/dev/null && alive=1; done < "$pids_file"
  [ $alive = 0 ] && break
  sleep 0.5
done
while read -r name pid; do kill -0 "$pid" 2>/dev/null && { echo "killing $name ($pid)"; kill -KILL "$pid"; }; done < "$pids_file"
rm -f "$pids_file"
echo "stopped"
