# syntax=docker/dockerfile:1
# schemawatch: one image for the live monitor (`schemawatch run`) and its offline commands.
#
#   docker build -t schemawatch .      (without Docker: scripts/image.sh build, docs/deploy.md)
#   docker run --rm -p 9464:9464 \
#     -v "$PWD/config.yaml:/etc/schemawatch/config.yaml:ro" \
#     -v "$PWD/schemas:/etc/schemawatch/schemas:ro" \
#     schemawatch
#
# The config file's `schemas:` paths are relative to the config, so `schemas: schemas/event` finds the
# mounted folder. Set `http.host: 0.0.0.0` in it: the default 127.0.0.1 is unreachable from outside the
# container. State (`state.file`) must go to a writable volume such as /var/lib/schemawatch: the image
# is meant to run with a read-only root filesystem.

ARG NODE_IMAGE=node:24-slim

# --- build: full dependencies, TypeScript to dist/ ----------------------------------------------------
FROM ${NODE_IMAGE} AS build
# npm's own settings, passed through to `npm ci` when given (scripts/image.sh installs offline from a
# mounted npm cache where the build cannot reach the registry); unset, npm uses its defaults.
ARG npm_config_cache
ARG npm_config_offline
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` runs tsc, which needs the sources copied below
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- production dependencies only --------------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
ARG npm_config_cache
ARG npm_config_offline
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would call tsc, a dev dependency; no production dependency has an
# install script. Only node_modules leaves this stage, so npm's cache stays behind without a clean
# (which would empty a mounted cache).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# --- runtime -----------------------------------------------------------------------------------------
FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# V8 otherwise sizes its heap from the host's memory and lets garbage pile up: with these limits the
# monitor peaked at 166-173 MB resident in the benchmark instead of 440 MB (BENCHMARKS.md). Raise the
# old space for catalogs with many subjects, producers or kept shapes, or for mostly-zstd topics
# (which then use less CPU and more memory, BENCHMARKS.md "Heap limits, measured again").
ENV NODE_OPTIONS="--max-old-space-size=96 --max-semi-space-size=8"
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
# the article's example catalog and traffic: `schemawatch run --config examples/config.yaml ...` and the
# demo producers of deploy/compose.yaml work without mounting anything
COPY examples ./examples
RUN mkdir -p /etc/schemawatch/schemas /var/lib/schemawatch /app/compile-cache && \
  chown 1000:1000 /var/lib/schemawatch /app/compile-cache
# The `node` user of the base image, by number: Kubernetes' runAsNonRoot can only verify a numeric user.
USER 1000:1000
# V8's compiled code of every module `run` loads, made here once by replaying the bundled example
# (bin/compile-cache.js): a start reads it and compiles nothing (BENCHMARKS.md "Start-up"), even on a
# read-only root file system, where nothing is written back. Node.js keeps a folder per version and
# user id; another user id, or a folder NODE_COMPILE_CACHE names elsewhere, starts without it.
ENV NODE_COMPILE_CACHE=/app/compile-cache
RUN node bin/schemawatch.js run --config examples/config.yaml --source file:examples/traffic/events.ndjson \
  --exit-at-end --port 0 >/dev/null 2>&1
EXPOSE 9464
VOLUME ["/var/lib/schemawatch"]
# slim has no curl: Node's own fetch asks /healthz where `schemawatch run` listens, read from its
# --host/--port flags and its config's http.host/http.port (bin/healthcheck.js), so another port in
# the mounted config needs no change here. A container running another command counts as healthy.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "/app/bin/healthcheck.js"]
ENTRYPOINT ["node", "/app/bin/schemawatch.js"]
CMD ["run", "--config", "/etc/schemawatch/config.yaml"]
