# Environment of the local stack, shared by up.sh and down.sh. The services,
# their ports, <NAME>_URL variables and start order come from the registry
# (services/registry/src/registry.ts) through scripts/registry/stack-env.ts.
if ! _er_registry_env=$(node --import tsx "$(dirname "${BASH_SOURCE[0]}")/registry/stack-env.ts"); then
  echo "stack.env.sh: cannot read the service registry (services/registry/src/registry.ts); run npm ci?" >&2
  return 1
fi
eval "$_er_registry_env"
# The names the registry exported (ports, <NAME>_URL), for write_stack_env below.
ER_REGISTRY_VARS=$(printf '%s\n' "$_er_registry_env" | sed -n 's/^export \([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | tr '\n' ' ')
unset _er_registry_env
export ER_DB=${ER_DB:-evidence_record}
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$ER_DB}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
export REDIS_PREFIX=${REDIS_PREFIX:-er:local:}
export NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
export NATS_PREFIX=${NATS_PREFIX:-local}
export SMTP_URL=${SMTP_URL:-smtp://127.0.0.1:1025}
export MAIL_FROM=${MAIL_FROM:-Evidence Record <alerts@evidence-record.local>}
export PUBLIC_BASE_URL=${PUBLIC_BASE_URL:-http://127.0.0.1:$GATEWAY_PORT}
export MCP_ALLOWED_HOSTS=${MCP_ALLOWED_HOSTS:-127.0.0.1:$GATEWAY_PORT,localhost:$GATEWAY_PORT}
export MCP_ALLOWED_ORIGINS=${MCP_ALLOWED_ORIGINS:-}
export LOG_LEVEL=${LOG_LEVEL:-info}
export MAILDEV_SMTP_PORT=${MAILDEV_SMTP_PORT:-1025}
export MAILDEV_WEB_PORT=${MAILDEV_WEB_PORT:-1080}
# The source monitor: the local demo source server plays DSLD and two retailers; only the
# local stack admits http://127.0.0.1 (docs/monitor.md).
export DEMO_SOURCES_PORT=${DEMO_SOURCES_PORT:-8190}
export DSLD_BASE_URL=${DSLD_BASE_URL:-http://127.0.0.1:$DEMO_SOURCES_PORT/dsld/v9}
export MONITOR_ALLOW_LOCALHOST=${MONITOR_ALLOW_LOCALHOST:-1}
export MONITOR_CONTACT=${MONITOR_CONTACT:-operator@evidence-record.local}
ER_RUN_DIR=${ER_RUN_DIR:-.run}

# Writes the stack's configuration (the variables above, the registry's, CURSOR_SECRET once set) as
# KEY="value" lines: what up.sh starts the services from and what the operator CLI reads
# (scripts/admin/config.ts), so both act on the same stack.
write_stack_env() { # path
  local path=$1 name
  : > "$path.tmp"
  chmod 600 "$path.tmp"
  for name in $ER_REGISTRY_VARS ER_DB DATABASE_URL REDIS_URL REDIS_PREFIX NATS_URL NATS_PREFIX SMTP_URL MAIL_FROM \
              PUBLIC_BASE_URL MCP_ALLOWED_HOSTS MCP_ALLOWED_ORIGINS LOG_LEVEL CURSOR_SECRET UNSUBSCRIBE_SIGNING_KEY CONSOLE_SESSION_SECRET; do
    [ -n "${!name+x}" ] || continue
    printf '%s="%s"\n' "$name" "$(printf '%s' "${!name}" | sed 's/[\\"$`]/\\&/g')" >> "$path.tmp"
  done
  mv "$path.tmp" "$path"
}
