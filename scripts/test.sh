#!/usr/bin/env bash
# `npm test`: type-check, then every jest project (unit, int, e2e). The Kafka tests need a real
# broker: it is started here (from Maven Central artifacts) and stopped afterwards; the PostgreSQL event
# store's tests need a server: a throwaway cluster wraps jest too (test/postgres/with-postgres.sh). Ends with
# one plain "N passed, N failed, N skipped" line for CI, the output's last; no other runner's closing banner
# reaches the output (schemathesis writes its report under .cache/schemathesis/, see test/support/schemathesis-run.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
npx tsc --noEmit -p tsconfig.json
npx tsc -p console/tsconfig.json  # the console's browser code (DOM types; esbuild does not type-check)
if [ -z "${EVENTSTORE_CONNECTION_STRING:-}" ]; then
  echo "EventStoreDB contract suite not run: EVENTSTORE_CONNECTION_STRING is not set (deploy/eventstore/README.md)"
fi
if ! node -e 'process.exit(require("./test/deploy/compose-cli").composeCliAvailable() ? 0 : 1)'; then
  echo "Docker Compose check not run: no compose v2 CLI (test/deploy/compose-config.sh --install builds one, about 15 minutes)"
fi
node test/postgres/support/multi-host-requirements.js  # prints why the multi-host fault test is left out, if it is
results=.cache/jest-results.json
mkdir -p .cache && rm -f "$results"
jest=(npx jest --ci --json --outputFile="$results" "$@")
if [ -z "${GATEWAY_TEST_POSTGRES_URL:-}" ]; then
  if ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || [ -n "${POSTGRES_BIN_DIR:-}" ]; then
    jest=(test/postgres/with-postgres.sh "${jest[@]}")
  else
    echo "PostgreSQL event store tests not run: no PostgreSQL binaries (scripts/setup.sh installs them) and GATEWAY_TEST_POSTGRES_URL is not set"
  fi
fi
status=0
if [ -z "${KAFKA_BROKERS:-}" ] && [ -x test/kafka/with-broker.sh ]; then
  test/kafka/with-broker.sh "${jest[@]}" || status=$?
else
  "${jest[@]}" || status=$?
fi
if [ -f "$results" ]; then
  node -e 'const r = require(process.argv[1]); console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`)' "$PWD/$results"
fi
exit "$status"
