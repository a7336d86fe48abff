# Environment of the local stack, shared by up.sh and down.sh. The services,
# their ports, <NAME>_URL variables and start order come from the registry
# (services/registry/src/registry.ts) through scripts/registry/stack-env.ts.
if ! _er_registry_env=$(node --import tsx "$(dirname "${BASH_SOURCE[0]}")/registry/stack-env.ts"); then
  echo "stack.env.sh: cannot read the service registry (services/registry/src/registry.ts); run npm ci?" >&2
  return 1
fi
eval "$_er_registry_env"
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
