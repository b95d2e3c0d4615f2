#!/usr/bin/env bash
# Stops the broker recorded in $KAFKA_STATE_FILE (default .cache/kafka/broker.env) by its own PID.
#   test/kafka/stop-broker.sh              stop it and delete its storage
#   test/kafka/stop-broker.sh --keep-data  stop it but keep storage and ports for start-broker.sh --restart
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE_FILE="${KAFKA_STATE_FILE:-$ROOT/.cache/kafka/broker.env}"
STOP_TIMEOUT_SECONDS=30

[[ -f "$STATE_FILE" ]] || { echo "[kafka-broker] no state file $STATE_FILE, nothing to stop" >&2; exit 0; }
# shellcheck disable=SC1090
source "$STATE_FILE"

if kill -0 "$KAFKA_PID" 2>/dev/null; then
  kill -TERM "$KAFKA_PID"
  for _ in $(seq 1 $((STOP_TIMEOUT_SECONDS * 10))); do
    kill -0 "$KAFKA_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$KAFKA_PID" 2>/dev/null; then
    echo "[kafka-broker] $KAFKA_PID ignored SIGTERM for ${STOP_TIMEOUT_SECONDS}s, killing it" >&2
    kill -KILL "$KAFKA_PID"
  fi
fi

if [[ "${1:-}" != "--keep-data" ]]; then
  rm -rf "$KAFKA_DATA_DIR"
  rm -f "$STATE_FILE"
fi
