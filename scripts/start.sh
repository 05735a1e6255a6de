#!/usr/bin/env bash
# The README's start command: console and API on the embedded default (SQLite under DATA_DIR,
# embedded scheduler, pt-BR demo data) at http://localhost:${PORT:-3000}.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
export NEXT_TELEMETRY_DISABLED=1
# Not `npm ci`: it refuses lockfiles made on these machines (they lack other platforms' optional packages).
npm install --no-audit --no-fund
npm run build
exec npm start
