#!/usr/bin/env bash
# Runs schemathesis (pinned, in a venv under .cache/ created on first use) against a running gateway:
#   scripts/schemathesis.sh <base-url> <api-key> [extra `st run` options]
# Every check on every operation; per-operation expectations live in test/openapi/schemathesis.toml.
# SCHEMATHESIS_MAX_EXAMPLES bounds the examples per operation (default 100), SCHEMATHESIS_SEED fixes the seed.
# SCHEMATHESIS_REPORT=<file>: everything (venv set-up and the run's report) goes to that file instead of the
# console; the tests use it so schemathesis's pytest-style closing banner never reaches `npm test`'s output.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SCHEMATHESIS_REPORT:-}" ]; then
  mkdir -p "$(dirname "$SCHEMATHESIS_REPORT")"
  exec >"$SCHEMATHESIS_REPORT" 2>&1
fi
VERSION=4.32.5
venv=.cache/schemathesis-venv
st="$venv/bin/st"
if [ ! -x "$st" ] || [ "$("$st" --version 2>/dev/null)" != "st, version $VERSION" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --timeout 60 --retries 3 "schemathesis==$VERSION"
fi
base_url=$1 api_key=$2
shift 2
export PYTHONPATH="$PWD/test/openapi${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks
# One worker: the coverage phase is not thread-safe on every CPython 3.11 (AST recursion-depth errors).
exec "$st" --config-file test/openapi/schemathesis.toml run "$base_url/openapi.json" \
  --checks all \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" \
  --seed "${SCHEMATHESIS_SEED:-27}" \
  --workers 1 \
  --header "Authorization: Bearer $api_key" \
  --no-color \
  "$@"
