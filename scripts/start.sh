#!/usr/bin/env bash
# The README's start command: console and API on the embedded default (SQLite under DATA_DIR, by
# default this project's ./.data; embedded scheduler; the pt-BR demo data, which this command asks
# for with SEED_DEMO) at http://localhost:${PORT:-3000}.
#
# `npm install` and `npm run build` run only when what they depend on changed since they last
# succeeded (scripts/build-inputs.mjs), so a restart takes seconds; the data and the generated
# secret stay in DATA_DIR across restarts and rebuilds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/node-runtime.sh"
export NEXT_TELEMETRY_DISABLED=1
(
  cd "$root"
  if node scripts/build-inputs.mjs install-check; then
    echo "== npm packages up to date"
  else
    # Not `npm ci`: it refuses lockfiles made on these machines (they lack other platforms' optional packages).
    npm install --no-audit --no-fund
    node scripts/build-inputs.mjs install-commit
  fi
  if node scripts/build-inputs.mjs check; then
    echo "== build up to date (nothing changed since it was made)"
  else
    npm run build
  fi
)
# The demo's public credentials come with this command only, and never onto a server database or
# beside a seed file of your own. SEED_DEMO=false starts without them.
if [ -z "${DATABASE_URL:-}" ] && [ -z "${SEED_FILE:-}" ]; then export SEED_DEMO="${SEED_DEMO:-true}"; fi
# `npm start`'s server, run from the caller's directory: relative paths they set (DATA_DIR=…) are
# theirs (scripts/resolve-file-settings.mjs). exec: a stop signal reaches the server itself.
exec node "$root/scripts/serve.mjs"
