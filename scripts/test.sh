#!/usr/bin/env bash
# `npm test`: type-check, then every jest project (unit, int, e2e). The Kafka tests need a real
# broker: it is started here (from Maven Central artifacts) and stopped afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc --noEmit -p tsconfig.json
if [ -z "${KAFKA_BROKERS:-}" ] && [ -x test/kafka/with-broker.sh ]; then
  exec test/kafka/with-broker.sh npx jest --ci "$@"
fi
exec npx jest --ci "$@"
