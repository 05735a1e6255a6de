#!/usr/bin/env bash
# The README's start command: console and API on the embedded default (SQLite under DATA_DIR,
# embedded scheduler, pt-BR demo data, which this command asks for with SEED_DEMO) at http://localhost:${PORT:-3000}.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
export NEXT_TELEMETRY_DISABLED=1
# Not `npm ci`: it refuses lockfiles made on these machines (they lack other platforms' optional packages).
npm install --no-audit --no-fund
npm run build
# The demo's public credentials come with this command only, and never onto a server database or
# beside a seed file of your own. SEED_DEMO=false starts without them.
if [ -z "${DATABASE_URL:-}" ] && [ -z "${SEED_FILE:-}" ]; then export SEED_DEMO="${SEED_DEMO:-true}"; fi
exec npm start
