# Environment of the local stack, shared by up.sh, down.sh and the benchmark.
export GATEWAY_PORT=${GATEWAY_PORT:-8080}
export ER_DB=${ER_DB:-evidence_record}
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$ER_DB}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export REDIS_PREFIX=${REDIS_PREFIX:-er:local:}
export NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
export NATS_PREFIX=${NATS_PREFIX:-local}
export SMTP_URL=${SMTP_URL:-smtp://127.0.0.1:1025}
export MAIL_FROM=${MAIL_FROM:-Evidence Record <alerts@evidence-record.local>}
export PUBLIC_BASE_URL=${PUBLIC_BASE_URL:-http://127.0.0.1:$GATEWAY_PORT}
export RECORD_URL=${RECORD_URL:-http://127.0.0.1:8101}
export SIGNALS_URL=${SIGNALS_URL:-http://127.0.0.1:8102}
export LEDGER_URL=${LEDGER_URL:-http://127.0.0.1:8103}
export WATCH_URL=${WATCH_URL:-http://127.0.0.1:8104}
export MCP_URL=${MCP_URL:-http://127.0.0.1:8105}
export GATEWAY_URL=${GATEWAY_URL:-http://127.0.0.1:$GATEWAY_PORT}
export MCP_ALLOWED_HOSTS=${MCP_ALLOWED_HOSTS:-127.0.0.1:$GATEWAY_PORT,localhost:$GATEWAY_PORT}
export MCP_ALLOWED_ORIGINS=${MCP_ALLOWED_ORIGINS:-}
export LOG_LEVEL=${LOG_LEVEL:-info}
export MAILDEV_SMTP_PORT=${MAILDEV_SMTP_PORT:-1025}
export MAILDEV_WEB_PORT=${MAILDEV_WEB_PORT:-1080}
ER_RUN_DIR=${ER_RUN_DIR:-.run}
# service name -> port
ER_SERVICES="record:8101 signals:8102 ledger:8103 watch:8104 mcp:8105 email-worker:8106 gateway:$GATEWAY_PORT"

# Writes the stack's configuration (the variables above, and CURSOR_SECRET once set) as KEY="value"
# lines: what up.sh starts the services from and what the operator CLI reads (scripts/admin/config.ts).
write_stack_env() { # path
  local path=$1 name
  : > "$path.tmp"
  chmod 600 "$path.tmp"
  for name in GATEWAY_PORT DATABASE_URL REDIS_URL REDIS_PREFIX NATS_URL NATS_PREFIX SMTP_URL MAIL_FROM PUBLIC_BASE_URL \
              RECORD_URL SIGNALS_URL LEDGER_URL WATCH_URL MCP_URL GATEWAY_URL MCP_ALLOWED_HOSTS MCP_ALLOWED_ORIGINS \
              LOG_LEVEL CURSOR_SECRET CONSOLE_PORT CONSOLE_SESSION_SECRET; do
    [ -n "${!name+x}" ] || continue
    printf '%s="%s"\n' "$name" "$(printf '%s' "${!name}" | sed 's/[\\"$`]/\\&/g')" >> "$path.tmp"
  done
  mv "$path.tmp" "$path"
}
