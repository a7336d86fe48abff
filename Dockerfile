# syntax=docker/dockerfile:1
#
# One image for every Evidence Record service. Each Kubernetes Deployment picks
# its service with `command: ["node", "dist/<service>.mjs"]` (see
# charts/evidence-record); the default CMD runs the gateway.
#
#   docker build -t evidence-record:dev .
#   docker run --rm -p 8080:8080 --read-only --tmpfs /tmp evidence-record:dev node dist/gateway.mjs
#
# The COPY lines of the manifests stage and the EXPOSE line are generated from
# package.json's workspaces and services/registry/src/registry.ts by
# scripts/registry/generate.ts; npm test fails while they are stale.

ARG NODE_IMAGE=node:20-slim

# ---- manifests: what npm ci reads, so both installs below cache on it alone --
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
# ---- generated (manifests) by scripts/registry/generate.ts from package.json workspaces and services/registry; do not edit ----
COPY package.json package-lock.json ./
COPY services/client/package.json services/client/
COPY services/console/package.json services/console/
COPY services/contract/package.json services/contract/
COPY services/curation/package.json services/curation/
COPY services/demo-sources/package.json services/demo-sources/
COPY services/email-worker/package.json services/email-worker/
COPY services/ledger/package.json services/ledger/
COPY services/mcp/package.json services/mcp/
COPY services/monitor/package.json services/monitor/
COPY services/platform/package.json services/platform/
COPY services/record/package.json services/record/
COPY services/registry/package.json services/registry/
COPY services/signals/package.json services/signals/
COPY services/sources/package.json services/sources/
COPY services/watch/package.json services/watch/
COPY gateway/package.json gateway/
COPY scripts/admin/package.json scripts/admin/
COPY scripts/demo-record/package.json scripts/demo-record/
COPY test/support/package.json test/support/
# ---- end of generated part ----

# ---- build: full install, then esbuild bundles into dist/ -------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /app ./
# npm's download cache lives in a build cache mount, never in a layer, and is
# reused across builds (a changed lockfile fetches only what is new).
# --ignore-scripts: only the manifests are here, and the one lifecycle script,
# the root's prepare (the typed client's types, for development), serves no
# bundle; esbuild runs from its platform package without its postinstall.
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs

# ---- deps: production dependencies only ------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /app ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked npm ci --omit=dev --workspaces --include-workspace-root --ignore-scripts --no-audit --no-fund

# ---- runtime ----------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# A container is reached on its own address, not its loopback (services default to 127.0.0.1).
ENV NODE_ENV=production \
    LISTEN_HOST=0.0.0.0 \
    NODE_OPTIONS=--enable-source-maps \
    HOME=/tmp \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid 10001 --home-dir /tmp --no-create-home --shell /usr/sbin/nologin app
# Workspace manifests and production node_modules (workspace links resolve to
# the manifests copied here; the service code itself lives in the bundles).
COPY --from=deps /app /app
# dist/ holds the bundles (workspace code bundled in, third-party packages
# external) and dist/migrations, which migrate.mjs reads.
COPY --from=build /app/dist ./dist
COPY --from=build /app/services/platform/migrations ./services/platform/migrations
# Nothing below /app is written at run time; the chart mounts an emptyDir at
# /tmp and runs with readOnlyRootFilesystem.
USER 10001:10001
# ---- generated (expose) by scripts/registry/generate.ts from package.json workspaces and services/registry; do not edit ----
EXPOSE 8101 8102 8103 8104 8106 8080 8107 8105 8110
# ---- end of generated part ----
STOPSIGNAL SIGTERM
CMD ["node", "dist/gateway.mjs"]
