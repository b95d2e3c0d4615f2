#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL: test/postgres/with-postgres.sh npx jest --selectProjects int
# initdb in a temporary directory (as `nobody` when run as root: PostgreSQL refuses to run as root), a free
# port on 127.0.0.1 only, no fsync (a test cluster is thrown away; WITH_POSTGRES_DURABLE=1 keeps PostgreSQL's
# durability, for benchmarks). Exports GATEWAY_TEST_POSTGRES_URL to the command, always stops the server and
# removes the directory afterwards, and exits with the command's exit code. Without PostgreSQL binaries it runs
# the command alone (scripts/test.sh then says so).
set -euo pipefail

bin_dir="${POSTGRES_BIN_DIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
if [ -z "$bin_dir" ] || [ ! -x "$bin_dir/initdb" ]; then
  echo "[postgres] no PostgreSQL binaries (/usr/lib/postgresql/*/bin): running without one" >&2
  exec "$@"
fi

cluster_dir="$(mktemp -d "${TMPDIR:-/tmp}/gateway-test-postgres.XXXXXX")"
as_owner=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$cluster_dir"
  as_owner=(runuser -u nobody --)
fi

stop_postgres() {
  "${as_owner[@]}" "$bin_dir/pg_ctl" -D "$cluster_dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster_dir"
}
trap stop_postgres EXIT
# A signal ends the script through its EXIT trap too (bash runs it on exit, not on every fatal signal).
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}

"${as_owner[@]}" "$bin_dir/initdb" -D "$cluster_dir/data" -U gateway --auth=trust --no-sync -E UTF8 >"$cluster_dir/initdb.log" 2>&1 \
  || { cat "$cluster_dir/initdb.log" >&2; exit 1; }
port="$(free_port)"
options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$cluster_dir -c max_connections=200"
# WITH_POSTGRES_DURABLE=1 keeps PostgreSQL's default durability (fsync, synchronous_commit, full_page_writes), for
# figures comparable with the embedded store's fsynced commits (docs/benchmarks.md); tests do without it.
if [ "${WITH_POSTGRES_DURABLE:-}" != 1 ]; then
  options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
fi
"${as_owner[@]}" "$bin_dir/pg_ctl" -D "$cluster_dir/data" -l "$cluster_dir/server.log" -o "$options" -w -t 60 start >/dev/null \
  || { cat "$cluster_dir/server.log" >&2; exit 1; }
"${as_owner[@]}" "$bin_dir/createdb" -h 127.0.0.1 -p "$port" -U gateway gateway_test

export GATEWAY_TEST_POSTGRES_URL="postgres://gateway@127.0.0.1:$port/gateway_test"
echo "[postgres] GATEWAY_TEST_POSTGRES_URL=$GATEWAY_TEST_POSTGRES_URL" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
