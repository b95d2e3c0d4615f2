#!/usr/bin/env bash
# Runs a command with a fresh broker: test/kafka/with-broker.sh npx jest --selectProjects int
# Starts the broker, exports KAFKA_BROKERS and KAFKA_STATE_FILE to the command, always stops the
# broker afterwards, and exits with the command's exit code.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export KAFKA_STATE_FILE="${KAFKA_STATE_FILE:-$(mktemp -u "${TMPDIR:-/tmp}/kafka-broker-state.XXXXXX.env")}"

trap '"$ROOT/test/kafka/stop-broker.sh"' EXIT
BROKERS_LINE="$("$ROOT/test/kafka/start-broker.sh")"
export "${BROKERS_LINE?}"
echo "[kafka-broker] $BROKERS_LINE" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
