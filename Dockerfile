# One image for every service; SERVICE picks which one runs.
# syntax=docker/dockerfile:1
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY libs libs
COPY services services
RUN npm ci --no-audit --no-fund && npx tsc -b

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/platform/package.json libs/platform/
COPY libs/testing/package.json libs/testing/
COPY services/auth/package.json services/auth/
COPY services/requests/package.json services/requests/
COPY services/notifier/package.json services/notifier/
COPY services/gateway/package.json services/gateway/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/libs libs
COPY --from=build /app/services services
USER node
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "services/gateway/dist/src/main.js"]
