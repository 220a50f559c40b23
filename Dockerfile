# syntax=docker/dockerfile:1
# The production image: the compiled server run by node itself, so that `docker stop` signals the server
# (see docs/deployment.md). Build: docker build -t docs-platform-server .

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The build script before the install: npm ci's prepare lifecycle runs it (and finds no sources yet).
COPY scripts/build.mjs scripts/
# Fixes to dependencies that npm ci applies (patch-package, README names each).
COPY patches patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY rest-facade rest-facade
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# The embedded database and its key file (unless DATABASE_URL is set), owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# 200 once migrated and serving with the database reachable; 503 while starting, stopping, or when the database is down.
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node handles SIGTERM and SIGINT itself (src/main.ts), also as PID 1: it drains for SHUTDOWN_TIMEOUT_MS and
# exits 0. Run with --init (tini reaps and forwards) and a stop timeout above SHUTDOWN_TIMEOUT_MS.
STOPSIGNAL SIGTERM
CMD ["node", "--max-old-space-size=1024", "--max-semi-space-size=16", "dist/src/main.js"]
