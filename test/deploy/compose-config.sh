#!/usr/bin/env bash
# Checks deploy/docker-compose.yml with the Docker Compose CLI (no engine needed: `config` only parses,
# interpolates and merges), alone and with the insecure local override; prints the merged override as JSON.
#   test/deploy/compose-config.sh            check (exit 3 when no compose CLI is found)
#   test/deploy/compose-config.sh --install  build the CLI from the Go module proxy first (~15 min on 2 cores)
# The CLI is `docker compose` (plugin), a `docker-compose` v2+ on PATH, or the one --install built in
# ${XDG_CACHE_HOME:-~/.cache}/inference-gateway-deploy-tools/bin (outside the checkout, so clones share it).
set -euo pipefail
cd "$(dirname "$0")/../../deploy"
COMPOSE_MODULE=github.com/docker/compose/v2
COMPOSE_VERSION=v2.40.3
tools="${XDG_CACHE_HOME:-$HOME/.cache}/inference-gateway-deploy-tools"

install_compose() {
  command -v go >/dev/null 2>&1 || { echo "compose-config.sh: go is not installed" >&2; exit 3; }
  # `go install pkg@version` refuses modules with replace/exclude directives: build inside the module instead.
  local dir work
  dir=$(GOFLAGS=-mod=mod go mod download -json "$COMPOSE_MODULE@$COMPOSE_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  work=$(mktemp -d)
  cp -r "$dir/." "$work" && chmod -R u+w "$work"
  mkdir -p "$tools/bin"
  (cd "$work" && GOFLAGS=-mod=mod go build -o "$tools/bin/docker-compose" ./cmd) >&2
  rm -rf "$work"
}

find_compose() {
  if command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then echo "docker compose"; return; fi
  if command -v docker-compose >/dev/null 2>&1 && docker-compose version --short 2>/dev/null | grep -qE '^v?[2-9]'; then echo docker-compose; return; fi
  if [ -x "$tools/bin/docker-compose" ]; then echo "$tools/bin/docker-compose"; return; fi
  return 1
}

if [ "${1:-}" = "--install" ]; then find_compose >/dev/null || install_compose; shift; fi
compose=$(find_compose) || { echo "compose-config.sh: no Docker Compose v2 CLI (run test/deploy/compose-config.sh --install)" >&2; exit 3; }

# Placeholder values: `config` checks that the variables are required, not what they hold.
export KURRENTDB_ADMIN_PASSWORD=${KURRENTDB_ADMIN_PASSWORD-check} GATEWAY_CURSOR_SECRET=${GATEWAY_CURSOR_SECRET-check} GATEWAY_METRICS_TOKEN=${GATEWAY_METRICS_TOKEN-check}
$compose -f docker-compose.yml config --quiet
$compose -f docker-compose.yml -f docker-compose.insecure-local.yml config --format json
