#!/usr/bin/env bash
# `npm test` step "image": builds the Dockerfile and runs every service of the
# registry from the built image, as the image's non-root user, on a read-only
# root filesystem with only /tmp writable, against this machine's Postgres,
# Redis and NATS; then the end-to-end smoke goes through the image's gateway
# (test/image/image.check.ts).
#
# No Docker engine runs here, and podman cannot run containers on this machine
# (crun/runc fail on cgroups and rlimits), so:
#   * podman builds the Dockerfile (`podman build --isolation chroot --network host`);
#   * `podman create` + `podman export` unpack the image's files into a folder,
#     which is bind-mounted read-only with a tmpfs on /tmp (as the chart's
#     readOnlyRootFilesystem + /tmp emptyDir);
#   * each service runs with `chroot --userspec=<the image's USER>` over it.
#
# THE BASE IMAGE IS A STAND-IN. No registry is reachable, so NODE_IMAGE
# (node:20-slim in the Dockerfile) is replaced by an image built here: Debian
# bookworm from `mmdebstrap --variant=minbase` plus this machine's Node 20
# binary and npm, laid out like the official image (/usr/local/bin/node). It is
# cached (podman's store, and .tools/image/ for the bootstrap tarball) and
# rebuilt when the Node version or this recipe changes.
#
# Needs root (mmdebstrap, mount, chroot). Installs podman and mmdebstrap with
# apt-get when they are missing.
#
# Usage: bash scripts/image-check.sh [build|run]. `build` makes the image (the
# stand-in base, then the Dockerfile), `run` runs every service from the image
# built last from this folder; neither argument does both. `npm test` starts
# `build` with its vitest step, at the lowest CPU priority, so that a cold
# build uses what the test steps leave idle, and `run` beside the README check.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
source scripts/infra.sh
log() { printf '[image] %s\n' "$*" >&2; }
started=$(date +%s)
phase=${1:-all}
case "$phase" in
  build | run | all) ;;
  *) echo "usage: bash scripts/image-check.sh [build|run]" >&2; exit 2 ;;
esac

if [ "$(id -u)" != 0 ]; then
  echo "image check: needs root (mmdebstrap, mount, chroot)" >&2
  exit 2
fi
ensure_image_tools

CACHE="$ROOT/.tools/image"
mkdir -p "$CACHE"
# One build at a time on this machine (builds share podman's store and the stand-in's tag).
exec 8>"${TMPDIR:-/tmp}/evidence-record-image.lock"
# This folder's own tag: a build from another clone on the machine never replaces the image this one runs.
IMAGE=localhost/evidence-record:check-$(printf '%s' "$ROOT" | sha256sum | cut -c1-12)

# ---- the stand-in for NODE_IMAGE -------------------------------------------
build_standin() {
  RECIPE=1 # bump when the stand-in's recipe below changes
  NODE_BIN=$(command -v node)
  NODE_VERSION=$(node --version)
  NPM_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  STANDIN_TAG="localhost/er-node-standin:${NODE_VERSION#v}-bookworm-r$RECIPE"
  if ! podman image exists "$STANDIN_TAG"; then
    tarball="$CACHE/bookworm-minbase-r$RECIPE.tar"
    if [ ! -s "$tarball" ]; then
      log "bootstrapping Debian bookworm (mmdebstrap --variant=minbase), once"
      mmdebstrap --quiet --variant=minbase --mode=root --format=tar bookworm "$tarball.partial" http://deb.debian.org/debian
      mv "$tarball.partial" "$tarball"
    fi
    podman import --quiet "$tarball" "localhost/er-bookworm-minbase:r$RECIPE" >/dev/null
    ctx=$(mktemp -d "${TMPDIR:-/tmp}/er-standin.XXXXXX")
    cp "$NODE_BIN" "$ctx/node"
    cp -a "$NPM_DIR" "$ctx/npm"
    cat > "$ctx/Containerfile" <<EOF
# Stand-in for node:20-slim (no registry reachable): Debian bookworm minbase + this machine's Node $NODE_VERSION.
FROM localhost/er-bookworm-minbase:r$RECIPE
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && node --version && npm --version
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CMD ["node"]
EOF
    log "building the stand-in base $STANDIN_TAG"
    podman build --quiet --isolation chroot --network host -t "$STANDIN_TAG" "$ctx" >/dev/null
    rm -rf "$ctx"
  fi
}

# ---- the image -------------------------------------------------------------
# This machine reaches the npm registry through a TLS proxy whose CA is in the
# host's trust store; the build's npm gets that store (and only during the
# build: mounts, not layers) through an npmrc with cafile. Without such a CA
# file the build uses npm's defaults.
build_image() {
  build_mounts=()
  host_ca=${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}
  if [ -n "$host_ca" ] && [ "$host_ca" != null ] && [ -s "$host_ca" ]; then
    printf 'cafile=/run/er-build-ca.crt\nupdate-notifier=false\n' > "$CACHE/build-npmrc"
    build_mounts+=(--volume "$host_ca:/run/er-build-ca.crt:ro" --volume "$CACHE/build-npmrc:/root/.npmrc:ro")
  fi
  log "podman build (NODE_IMAGE=$STANDIN_TAG)"
  build_started=$(date +%s)
  podman build --quiet --isolation chroot --network host "${build_mounts[@]}" --build-arg "NODE_IMAGE=$STANDIN_TAG" -t "$IMAGE" . >/dev/null
  log "built in $(( $(date +%s) - build_started )) s"
}

if [ "$phase" != run ]; then
  flock 8
  build_standin
  build_image
  flock -u 8
fi
[ "$phase" = build ] && exit 0

podman image exists "$IMAGE" || { echo "image check: no image $IMAGE yet (bash scripts/image-check.sh build)" >&2; exit 1; }
USER_SPEC=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
IMAGE_ENV=$(podman image inspect --format '{{json .Config.Env}}' "$IMAGE")
case "$USER_SPEC" in
  '' | 0 | 0:* | root | root:*) echo "image check: the image runs as root (USER is '$USER_SPEC')" >&2; exit 1 ;;
esac

# ---- its files, read-only, /tmp writable -------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/er-image.XXXXXX")
FILES="$WORK/files"
MNT="$WORK/root"
mounted=()
cleanup() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  [ -n "${ctr:-}" ] && podman rm -f "$ctr" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$FILES" "$MNT"
ctr=$(podman create "$IMAGE")
podman export "$ctr" | tar -x -C "$FILES"
podman rm "$ctr" >/dev/null
ctr=
mount --bind "$FILES" "$MNT" && mounted+=("$MNT")
mount -o remount,bind,ro "$MNT"
mount -t tmpfs -o size=64m,mode=1777 tmpfs "$MNT/tmp" && mounted+=("$MNT/tmp")
mount -t proc proc "$MNT/proc" && mounted+=("$MNT/proc")
mount --bind /dev "$MNT/dev" && mounted+=("$MNT/dev")
mount -o remount,bind,ro "$MNT/dev"

log "running every service from the image as $USER_SPEC on a read-only root"
ER_IMAGE_ROOT="$MNT" ER_IMAGE_USER="$USER_SPEC" ER_IMAGE_ENV="$IMAGE_ENV" \
  npx vitest run --config vitest.image.config.ts
log "image check took $(( $(date +%s) - started )) s"
