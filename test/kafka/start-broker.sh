#!/usr/bin/env bash
# Starts a single-node KRaft Apache Kafka broker on loopback, without Docker: the broker jars come from
# Maven Central (cached under .cache/kafka/) and run with the machine's JDK.
#   test/kafka/start-broker.sh            fresh storage in a new temp dir, free ports
#   test/kafka/start-broker.sh --restart  same storage and ports as the stopped broker in the state file
# Prints KAFKA_BROKERS=127.0.0.1:PORT and writes it, the PID and the data dir to $KAFKA_STATE_FILE
# (default .cache/kafka/broker.env). Stop it with test/kafka/stop-broker.sh.
# KAFKA_LISTEN_HOST (default 127.0.0.1) is the address clients connect to and the broker advertises: an
# address of this host other than loopback lets clients in network namespaces reach it (the multi-host test
# uses its bridge's). The controller stays on 127.0.0.1.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
KAFKA_VERSION=3.9.1
CACHE="$ROOT/.cache/kafka"
LIBS="$CACHE/libs-$KAFKA_VERSION"
STATE_FILE="${KAFKA_STATE_FILE:-$CACHE/broker.env}"
READY_TIMEOUT_MS="${KAFKA_READY_TIMEOUT_MS:-90000}"
LISTEN_HOST="${KAFKA_LISTEN_HOST:-127.0.0.1}"

log() { echo "[kafka-broker] $*" >&2; }

# The broker is a Java program fetched with Maven: both come from the machine (scripts/setup.sh installs
# them with apt-get when it runs as root). Say exactly what is missing instead of failing further on.
require_tools() {
  local missing=()
  if ! command -v java >/dev/null 2>&1; then
    missing+=("a Java runtime, 11 or newer (17 is what the tests run on): apt-get install openjdk-17-jre-headless")
  else
    local major
    major="$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\)[."].*/\1/p' | head -n 1)"
    if [[ -n "$major" && "$major" -lt 11 ]]; then missing+=("Java 11 or newer (found Java $major): apt-get install openjdk-17-jre-headless"); fi
  fi
  if [[ ! -f "$LIBS/.complete" ]] && ! command -v mvn >/dev/null 2>&1; then
    missing+=("Maven, to fetch the broker's jars once into .cache/kafka/: apt-get install maven")
  fi
  if (( ${#missing[@]} > 0 )); then
    log "the Kafka tests need a broker, and starting one needs:"
    for item in "${missing[@]}"; do log "  - $item"; done
    exit 3
  fi
}

free_port() {
  node -e "const s=require('net').createServer().listen(0,process.argv[1],()=>{console.log(s.address().port);s.close()})" "${1:-127.0.0.1}"
}

# Maven resolves the broker's runtime closure once; the lock keeps parallel first runs from racing.
fetch_jars() {
  mkdir -p "$CACHE"
  exec 9>"$CACHE/fetch.lock"
  flock 9
  if [[ ! -f "$LIBS/.complete" ]]; then
    log "fetching kafka_2.13:$KAFKA_VERSION with Maven into $LIBS"
    rm -rf "$LIBS"
    mvn -B -q -Dstyle.color=never -f "$ROOT/test/kafka/broker-pom.xml" -Dmaven.repo.local="$CACHE/m2" \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIBS" >&2
    touch "$LIBS/.complete"
  fi
  exec 9>&-
}

write_properties() {
  cat >"$DATA_DIR/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://$LISTEN_HOST:$BROKER_PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$LISTEN_HOST:$BROKER_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$DATA_DIR/kraft
num.partitions=3
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
}

java_cmd() {
  JAVA=(java -Xmx512m -Dlog4j.configuration="file:$ROOT/test/kafka/broker-log4j.properties"
    -Dkafka.logs.dir="$DATA_DIR/logs" -cp "$LIBS/*")
}

prepare_fresh() {
  DATA_DIR="$(mktemp -d "${TMPDIR:-/tmp}/kafka-broker.XXXXXX")"
  mkdir -p "$DATA_DIR/logs"
  BROKER_PORT="$(free_port "$LISTEN_HOST")"
  CONTROLLER_PORT="$(free_port)"
  while [[ "$CONTROLLER_PORT" == "$BROKER_PORT" ]]; do CONTROLLER_PORT="$(free_port)"; done
  write_properties
  java_cmd
  local cluster_id
  cluster_id="$("${JAVA[@]}" kafka.tools.StorageTool random-uuid)"
  "${JAVA[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$DATA_DIR/server.properties" >&2
}

prepare_restart() {
  [[ -f "$STATE_FILE" ]] || { log "no state file $STATE_FILE to restart from"; exit 1; }
  # shellcheck disable=SC1090
  source "$STATE_FILE"
  if [[ -n "${KAFKA_PID:-}" ]] && kill -0 "$KAFKA_PID" 2>/dev/null; then
    log "broker $KAFKA_PID is still running"; exit 1
  fi
  DATA_DIR="$KAFKA_DATA_DIR" BROKER_PORT="$KAFKA_BROKER_PORT" CONTROLLER_PORT="$KAFKA_CONTROLLER_PORT"
  LISTEN_HOST="${KAFKA_BROKERS%:*}"
}

launch() {
  java_cmd
  nohup "${JAVA[@]}" kafka.Kafka "$DATA_DIR/server.properties" >>"$DATA_DIR/broker.log" 2>&1 &
  KAFKA_PID=$!
  mkdir -p "$(dirname "$STATE_FILE")"
  cat >"$STATE_FILE" <<STATE
KAFKA_BROKERS=$LISTEN_HOST:$BROKER_PORT
KAFKA_PID=$KAFKA_PID
KAFKA_DATA_DIR=$DATA_DIR
KAFKA_BROKER_PORT=$BROKER_PORT
KAFKA_CONTROLLER_PORT=$CONTROLLER_PORT
STATE
}

require_tools
fetch_jars
if [[ "${1:-}" == "--restart" ]]; then prepare_restart; else prepare_fresh; fi
launch
log "broker PID $KAFKA_PID, data $DATA_DIR, log $DATA_DIR/broker.log"
if ! node -r "$ROOT/node_modules/ts-node/register/transpile-only" "$ROOT/test/kafka/wait-for-broker.ts" \
  "$LISTEN_HOST:$BROKER_PORT" "$KAFKA_PID" "$READY_TIMEOUT_MS"; then
  tail -n 40 "$DATA_DIR/broker.log" >&2 || true
  kill "$KAFKA_PID" 2>/dev/null || true
  exit 1
fi
echo "KAFKA_BROKERS=$LISTEN_HOST:$BROKER_PORT"
