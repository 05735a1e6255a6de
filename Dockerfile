# Production image of the console and API on Next's standalone output.
#   docker build -t integration-console .
#   docker run -p 3000:3000 -v ic-data:/data integration-console
# It seeds nothing: the first admin comes from the create-admin command, run in the image against
# the same volume (or DATABASE_URL), which prints a one-time link to set the password:
#   docker run --rm -v ic-data:/data integration-console node create-admin.mjs --email ti@hospital.example
# Server databases and the Oracle procedure are configured by environment (docs/production.md).
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 ships prebuilt binaries; the toolchain is only a fallback for other platforms.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build

FROM node:24-bookworm-slim AS run
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0 DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
# The standalone server with its traced node_modules, the static assets and public/, and the
# create-admin command (scripts/build-create-admin.mjs).
COPY --from=build --chown=node:node /app/.next/standalone ./
# Puts the TCP peer's address where rate limits read it (scripts/server-entry.mjs).
COPY --from=build --chown=node:node /app/scripts/server-entry.mjs ./
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "./server-entry.mjs", "server.js"]
