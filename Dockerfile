# The shop as one image: the API, the shop widget and the back office, served by one Node process.
# Build: docker build -t street-paper-shop .   Run: see compose.yaml and docs/production.md.

# --- build: every dependency, then the two user interfaces (Vite) and the server's bundles into dist/ ---
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- dependencies of the running server and its command-line tools only (no Vite, esbuild, tsx or test tools) ---
FROM node:20-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime ---
FROM node:20-slim
# A container is reached through its network interface, never its loopback: HOST=0.0.0.0 makes every
# start public, so the image started bare (no PUBLIC_URL) refuses with exit 78 and names PUBLIC_URL.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=runtime-deps /app/node_modules ./node_modules
# The server and its tools run from their bundles (npm start, npm run account, backup, …): of the
# sources only the pictures /img serves, and the build check the tools' scripts start with, which
# finds no sources here and leaves dist/ as the build stage made it.
COPY package.json ./
COPY api/public ./api/public
COPY scripts/ensure-build.mjs scripts/build-server.mjs ./scripts/
COPY --from=build /app/dist ./dist
# The embedded database (without DATABASE_URL) lives in DATA_DIR; the image's own user owns it.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness only (the process answers); whether the database answers is /readyz, for the balancer.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Listening beyond loopback, the server refuses to start on a test-mode default: it needs PUBLIC_URL,
# STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or STRIPE_SANDBOX=true on purpose) and SEED_DEMO set
# (docs/production.md, "Configuration"); it then exits with code 78 and names the variable.
# What `npm start` runs, without its build check (dist/ was built above) and without npm in
# between, so SIGTERM from `docker stop` reaches the server, which finishes open requests and exits.
CMD ["node", "--enable-source-maps", "dist/server/server.mjs"]
