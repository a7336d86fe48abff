# The local stack's configuration, for up.sh (sourced). Needs the npm packages:
# up.sh installs them (ensure_all) before it calls configure_stack.
ER_RUN_DIR=${ER_RUN_DIR:-.run}

# Writes $ER_RUN_DIR/stack.env, the one configuration every process of the stack
# starts from and the operator CLI reads (scripts/registry/stack-env.ts derives it
# from the registry and each program's config schema), exports it, and sets
# ER_SERVICE_WAVES: the registry's services in start waves, a line per wave of
# "name:port" words ("-" for a service without HTTP).
configure_stack() {
  local waves
  waves=$(node --import tsx scripts/registry/stack-env.ts "$ER_RUN_DIR") || return 1
  set -a
  # shellcheck disable=SC1091
  source "$ER_RUN_DIR/stack.env"
  set +a
  ER_SERVICE_WAVES=$waves
}
