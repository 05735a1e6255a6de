#!/usr/bin/env bash
# Every test, from a fresh clone: installs what the tests need (npm packages, Debian's Chromium,
# a PostgreSQL server when none answers), then runs `npm test` (types, unit on SQLite and on a fresh
# PostgreSQL database, build, e2e on SQLite and PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
export NEXT_TELEMETRY_DISABLED=1

apt_updated=false
apt_install() {
  if [ "$apt_updated" = false ]; then apt-get update -qq; apt_updated=true; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Chromium (Debian package)"
  apt_install chromium
fi

# A real Prometheus scrapes the service in e2e/api/prometheus.spec.ts (the spec starts its own).
if ! command -v prometheus >/dev/null 2>&1 && [ ! -x /usr/bin/prometheus ]; then
  echo "== installing Prometheus (Debian package)"
  apt_install --no-install-recommends prometheus
fi

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "== starting PostgreSQL"
  command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi

# The broker destinations' specs (issue 29) publish to a real RabbitMQ and NATS JetStream.
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for_port() {
  for _ in $(seq 1 60); do answers "$1" && return 0; sleep 1; done
  echo "$2 did not answer on 127.0.0.1:$1" >&2
  return 1
}
if ! answers 5672; then
  echo "== starting RabbitMQ"
  command -v rabbitmq-server >/dev/null 2>&1 || apt_install rabbitmq-server
  # Its own output (a PID-file warning with -detached) goes to a log: the run prints only what it checks.
  rabbitmq-server -detached >/tmp/rabbitmq-start.log 2>&1
  wait_for_port 5672 RabbitMQ
fi
if ! answers 4222; then
  echo "== starting NATS (JetStream)"
  [ -x /usr/sbin/nats-server ] || apt_install nats-server
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_for_port 4222 NATS
fi

echo "== npm install"
# Not `npm ci`: it refuses lockfiles made on these machines (they lack other platforms' optional packages).
npm install --no-audit --no-fund
# What was installed, as the start command records it (scripts/build-inputs.mjs): its spec then skips the install.
node scripts/build-inputs.mjs install-commit

echo "== npm test"
# A clock the machine steps mid-run shows up as a time-related failure: say so in the log when it happens.
node scripts/clock-watch.mjs &
clock_watch=$!
trap 'kill "$clock_watch" 2>/dev/null || true' EXIT
npm test
