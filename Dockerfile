# syntax=docker/dockerfile:1
# One image for every service; the command picks which one runs:
#   node services/<auth|requests|notifier|gateway>/dist/src/main.js     (the service)
#   node services/<auth|requests|notifier>/dist/src/migrate.js          (its migrations)
# The default command runs the gateway. Decisions: docs/adr/0900-container-image.md.
# Checked without a Docker engine by tests/deploy/dockerfile.test.ts.

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

# Compiles every workspace with the full (dev) toolchain, then keeps only what runs:
# compiled sources and SQL migrations, without tests, declarations or build info.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /manifests/ ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.base.json tsconfig.json ./
COPY libs libs
COPY services services
# Only the services' projects (and the libraries they reference): the root tsconfig
# also names tests/, which is not in the build context.
RUN set -eu; \
  node node_modules/typescript/bin/tsc -b services/*; \
  mkdir /out; \
  for dir in libs/* services/*; do \
    if [ "$dir" = libs/testing ] || [ "$dir" = libs/client ]; then continue; fi; \
    mkdir -p "/out/$dir"; \
    cp -r "$dir/dist" "/out/$dir/dist"; \
    if [ -d "$dir/migrations" ]; then cp -r "$dir/migrations" "/out/$dir/migrations"; fi; \
  done; \
  rm -rf /out/*/*/dist/test; \
  find /out \( -name '*.tsbuildinfo' -o -name '*.d.ts' -o -name .gitkeep \) -delete

# What ships: Node 24, production dependencies only, tini as PID 1, an unprivileged
# numeric user (so Kubernetes' runAsNonRoot can verify it), no npm.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=manifests /manifests/ ./
# No production dependency has an install script (tests/deploy checks the lock file),
# so none runs. npm itself is then removed: nothing calls it at run time.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf /root/.npm /tmp/* \
  && rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
    /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack
COPY --from=build /out/ ./
USER 1000:1000
EXPOSE 8080 8081 8082 8083
# For `docker run` and compose. Kubernetes ignores it and uses the probes in k8s/.
# PORT is set explicitly wherever the image runs (compose, k8s); 8080 is the gateway's.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||'8080')+'/healthz',{signal:AbortSignal.timeout(2500)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "services/gateway/dist/src/main.js"]
