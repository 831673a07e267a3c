# syntax=docker/dockerfile:1
# One image for every service; the command picks which one runs:
#   node services/<auth|requests|notifier|gateway>/dist/src/main.js     (the service)
#   node services/<auth|requests|notifier>/dist/src/migrate.js          (its migrations)
#   node services/auth/dist/src/adapters/cli/admin.js                   (auth's operator CLI)
# The default command runs the gateway. Decisions: docs/adr/0900-container-image.md and
# docs/adr/0907-images-built-without-a-registry.md. Checked without a Docker engine by
# tests/deploy/dockerfile.test.ts, and built and run by tests/deploy/image.test.ts.
# Where no registry is reachable, scripts/images.sh makes NODE_IMAGE from Debian and npm.

ARG NODE_IMAGE=node:24-bookworm-slim

# Every workspace's package.json and the lock file, nothing else: the layers that
# install dependencies below are rebuilt only when these change, not on every edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
COPY libs libs
COPY services services
RUN mkdir /manifests \
  && cp package.json package-lock.json .npmrc /manifests/ \
  && find libs services -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# The production install, apart: what is traced into the image comes from here only.
FROM ${NODE_IMAGE} AS production
WORKDIR /prod
COPY --from=manifests /manifests/ ./
# No production dependency has an install script (tests/deploy checks the lock file).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# Compiles every workspace with the full (dev) toolchain, then gathers what runs:
# Node itself with the few shared libraries it links, tini, and from the production
# install only the files the services' entry points reach (scripts/image-files.mjs).
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.base.json tsconfig.json ./
COPY scripts/image-files.mjs scripts/
COPY libs libs
COPY services services
COPY --from=production /prod /prod
# Only the services' projects (and the libraries they reference): the root tsconfig
# also names tests/, which is not in the build context.
RUN set -eu; \
  node node_modules/typescript/bin/tsc -b services/*; \
  for dir in libs/* services/*; do \
    for part in dist migrations; do \
      if [ -d "$dir/$part" ]; then mkdir -p "/prod/$dir" && cp -r "$dir/$part" "/prod/$dir/$part"; fi; \
    done; \
  done; \
  node scripts/image-files.mjs /prod /rootfs/app
RUN set -eu; \
  mkdir -p /rootfs/usr/local/bin /rootfs/usr/bin /rootfs/etc /rootfs/tmp; \
  chmod 1777 /rootfs/tmp; \
  cp /usr/local/bin/node /rootfs/usr/local/bin/node; \
  cp /usr/bin/tini-static /rootfs/usr/bin/tini; \
  for lib in $(ldd /usr/local/bin/node | awk '$2 == "=>" { print $3 } $1 ~ /^\/lib/ { print $1 }'); do \
    cp -L --parents "$lib" /rootfs; \
  done; \
  printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnode:x:1000:1000:node:/app:/usr/sbin/nologin\n' >/rootfs/etc/passwd; \
  printf 'root:x:0:\nnode:x:1000:\n' >/rootfs/etc/group; \
  printf 'hosts: files dns\n' >/rootfs/etc/nsswitch.conf

# What ships: Node 24 and the shared libraries it links, tini as PID 1, the services'
# compiled code and the traced production files; no shell, no package manager, no npm.
# An unprivileged numeric user, so Kubernetes' runAsNonRoot can verify it.
FROM scratch AS runtime
COPY --from=build /rootfs/ /
# A young generation of 2 × 8 MB instead of V8's 2 × 16 MB: 16 MB less peak RSS per
# service under load (ADR 2600); two malloc arenas instead of up to 16, for V8's and
# libuv's threads: about 5 MB less (ADR 2700). npm start and the test harness set the same.
ENV NODE_ENV=production PATH=/usr/local/bin:/usr/bin NODE_OPTIONS=--max-semi-space-size=8 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
USER 1000:1000
EXPOSE 8080 8081 8082 8083
# For `docker run` and compose. Kubernetes ignores it and uses the probes in k8s/.
# PORT is set explicitly wherever the image runs (compose, k8s); 8080 is the gateway's.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||'8080')+'/healthz',{signal:AbortSignal.timeout(2500)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "services/gateway/dist/src/main.js"]
