#!/usr/bin/env bash
# Installs everything the gateway and its tests need on a fresh machine (Node 24 if the machine's node
# is older, Node deps, bundled ffmpeg/ffprobe). better-sqlite3 13 ships Node-API prebuilds, so nothing
# compiles here. Kafka's broker is fetched by test/kafka/start-broker.sh when tests run; it runs on the
# machine's Java with jars Maven fetches, so those two are installed here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh

# Only `npm test`'s Kafka broker needs them; `npm start` does not. Installed with apt-get when this runs
# as root on Debian/Ubuntu (CI, containers); otherwise the command to run is printed. The image build
# sets GATEWAY_SETUP_NO_TEST_TOOLS=1 (it runs no tests).
if [ -z "${GATEWAY_SETUP_NO_TEST_TOOLS:-}" ] && { ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; }; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless maven >/dev/null
  else
    echo "setup: npm test's Kafka broker needs Java (11+) and Maven: sudo apt-get install openjdk-17-jre-headless maven" >&2
  fi
fi

# The console's browser tests (test/console) drive Debian's chromium through playwright-core.
if [ -z "${GATEWAY_SETUP_NO_TEST_TOOLS:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup: the console's browser tests need chromium: sudo apt-get install chromium" >&2
  fi
fi

# The PostgreSQL event store's tests run a throwaway cluster (test/postgres/with-postgres.sh) on Debian's
# server binaries (/usr/lib/postgresql/*/bin).
if [ -z "${GATEWAY_SETUP_NO_TEST_TOOLS:-}" ] && ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    # Only the binaries are used: no default cluster (it would take port 5432 and run as a service).
    mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/gateway-no-main-cluster.conf
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "setup: the PostgreSQL event store's tests need PostgreSQL's server: sudo apt-get install postgresql" >&2
  fi
fi

# The multi-host fault test (test/postgres/replicas-on-hosts.e2e-spec.ts, run as root) makes its hosts with
# iproute2's `ip netns`; minimal images may lack it.
if [ -z "${GATEWAY_SETUP_NO_TEST_TOOLS:-}" ] && [ "$(id -u)" = 0 ] && ! command -v ip >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null
fi

npm ci --no-audit --no-fund
# `npm start`, `npm test` and `npm run ...` put node_modules/.bin first on PATH, so this link makes every
# project script run on the Node this install was built for, whatever node the machine has.
if [ -n "${gateway_node_dir:-}" ]; then ln -sf "$gateway_node_dir/bin/node" node_modules/.bin/node; fi
# The bundled ffprobe ships without its exec bit when install scripts are skipped.
chmod +x node_modules/@ffmpeg-installer/linux-x64/ffmpeg node_modules/@ffprobe-installer/linux-x64/ffprobe
