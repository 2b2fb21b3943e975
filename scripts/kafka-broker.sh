#!/usr/bin/env bash
# A real single-node Apache Kafka broker (KRaft: broker and controller in one JVM, no ZooKeeper,
# no Docker) for the integration tests.
#
#   scripts/kafka-broker.sh fetch    Maven fetches Kafka and its runtime jars into the cache (once)
#   scripts/kafka-broker.sh start    formats a fresh log dir, starts the broker on 127.0.0.1, waits
#                                    until it answers, prints KAFKA_BROKERS=127.0.0.1:PORT on stdout
#   scripts/kafka-broker.sh stop     stops the broker started by `start` (idempotent)
#   scripts/kafka-broker.sh status   exit 0 and KAFKA_BROKERS=... when it runs, exit 3 when not
#
# Typical use:   scripts/kafka-broker.sh fetch && export "$(scripts/kafka-broker.sh start)"
#
# Environment (all optional):
#   KAFKA_VERSION            Kafka release from Maven Central (default 4.4.0)
#   KAFKA_PORT               PLAINTEXT listener port (default 19092)
#   KAFKA_CONTROLLER_PORT    KRaft controller port (default KAFKA_PORT + 1)
#   KAFKA_START_TIMEOUT      seconds `start` waits for the broker to answer (default 90)
#   KAFKA_HEAP_OPTS          JVM heap options (default -Xms256m -Xmx512m)
#   SW_CACHE                 cache root outside the repository (default ~/.cache/schemawatch)
#   KAFKA_RUN_DIR            where config, data, pid file and log go
#                            (default $SW_CACHE/kafka-run-$KAFKA_PORT)
# Everything but the KAFKA_BROKERS line goes to stderr.
set -euo pipefail

KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
KAFKA_PORT="${KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-$((KAFKA_PORT + 1))}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
SW_CACHE="${SW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schemawatch}"
KAFKA_HOME="$SW_CACHE/kafka-$KAFKA_VERSION"
KAFKA_LIBS="$KAFKA_HOME/libs"
KAFKA_RUN_DIR="${KAFKA_RUN_DIR:-$SW_CACHE/kafka-run-$KAFKA_PORT}"
PID_FILE="$KAFKA_RUN_DIR/kafka.pid"
LOG_FILE="$KAFKA_RUN_DIR/kafka.log"
HOST="127.0.0.1"
BROKERS="$HOST:$KAFKA_PORT"

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"
POM="$SCRIPT_DIR/kafka-pom.xml"

say() { echo "kafka-broker: $*" >&2; }
die() {
  say "$*"
  exit 1
}

need_java() {
  command -v java >/dev/null || die "java not found on PATH (Kafka $KAFKA_VERSION needs Java 17 or newer)"
  local major
  major="$(java -XshowSettings:properties -version 2>&1 |
    sed -nE 's/^ *java\.specification\.version = ([0-9]+).*/\1/p')"
  if [ -n "$major" ] && [ "$major" -lt 17 ]; then
    die "java $major found; Kafka $KAFKA_VERSION needs Java 17 or newer"
  fi
}

libs_ready() { [ -f "$KAFKA_HOME/.complete" ] && [ -f "$KAFKA_LIBS/kafka_2.13-$KAFKA_VERSION.jar" ]; }

cmd_fetch() {
  if libs_ready; then
    say "Kafka $KAFKA_VERSION already in $KAFKA_LIBS"
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found on PATH: Maven is needed to fetch Kafka $KAFKA_VERSION"
  need_java
  say "fetching Kafka $KAFKA_VERSION and its runtime dependencies with Maven into $KAFKA_LIBS"
  mkdir -p "$SW_CACHE"
  local tmp
  tmp="$(mktemp -d "$SW_CACHE/.kafka-fetch.XXXXXX")"
  # -q keeps Maven's progress quiet; its errors still reach stderr (without the colour codes that
  # Maven 3.8 prints even in quiet batch mode), and a failure stops the script.
  local rc
  set +e
  mvn -q -B -f "$POM" -Dkafka.version="$KAFKA_VERSION" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/libs" 2>&1 |
    sed -E 's/\x1b\[[0-9;]*m//g; /^[[:space:]]*$/d' >&2
  rc="${PIPESTATUS[0]}"
  set -e
  if [ "$rc" -ne 0 ]; then
    rm -rf "$tmp"
    die "Maven could not fetch org.apache.kafka:kafka_2.13:$KAFKA_VERSION (see the errors above)"
  fi
  [ -f "$tmp/libs/kafka_2.13-$KAFKA_VERSION.jar" ] || {
    rm -rf "$tmp"
    die "Maven finished but kafka_2.13-$KAFKA_VERSION.jar is missing"
  }
  rm -rf "$KAFKA_HOME"
  touch "$tmp/.complete"
  mv "$tmp" "$KAFKA_HOME"
  say "Kafka $KAFKA_VERSION ready: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars in $KAFKA_LIBS"
}

# The pid in the pid file when that process is still our broker; nothing otherwise.
running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # Guard against a recycled pid: the process must be the broker of this run dir.
  { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null |
    grep -qF "kafka.Kafka $KAFKA_RUN_DIR/server.properties" || return 1
  echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

write_config() {
  cat >"$KAFKA_RUN_DIR/server.properties" <<EOF
# Written by scripts/kafka-broker.sh: one KRaft node that is broker and controller, for tests only.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KAFKA_RUN_DIR/data
metadata.log.dir=$KAFKA_RUN_DIR/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
auto.create.topics.enable=true
delete.topic.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=5
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
log.retention.hours=24
log.segment.bytes=16777216
EOF
  cat >"$KAFKA_RUN_DIR/log4j2.properties" <<'EOF'
# Written by scripts/kafka-broker.sh: the broker logs to stdout, which start sends to kafka.log.
status = warn
appender.stdout.type = Console
appender.stdout.name = STDOUT
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.stdout.ref = STDOUT
logger.kafka.name = kafka
logger.kafka.level = INFO
logger.apache.name = org.apache.kafka
logger.apache.level = INFO
logger.request.name = kafka.request.logger
logger.request.level = WARN
EOF
}

# The java command line (in the array JAVA_CMD) that runs main class $1 with arguments $2...
java_cmd() {
  local heap
  read -r -a heap <<<"$KAFKA_HEAP_OPTS"
  JAVA_CMD=(java "${heap[@]}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
    -Dlog4j2.configurationFile="$KAFKA_RUN_DIR/log4j2.properties" -Dkafka.logs.dir="$KAFKA_RUN_DIR"
    -cp "$KAFKA_LIBS/*" "$@")
}

# SIGTERM (the broker shuts down cleanly), then waits for the process to be gone; SIGKILL after 30s.
stop_pid() {
  local pid="$1" waited=0
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge 300 ]; then
      say "pid $pid still running after 30s: sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      return 0
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
}

fail_start() {
  say "$1"
  if [ -f "$LOG_FILE" ]; then
    say "last 60 lines of $LOG_FILE:"
    tail -n 60 "$LOG_FILE" >&2
  fi
  local pid
  if pid="$(running_pid)"; then
    stop_pid "$pid"
  fi
  rm -f "$PID_FILE"
  exit 1
}

# 0 when the broker answers a kafkajs admin describeCluster (or, without Node.js and kafkajs, when the
# port is open and the broker logged that it started).
broker_answers() {
  if [ -n "${SW_NODE:-}" ]; then
    # Run from the repository so that "kafkajs" resolves from its node_modules.
    (cd "$REPO_DIR" && KAFKA_PROBE_BROKERS="$BROKERS" "$SW_NODE" --input-type=module -e '
      import { Kafka, logLevel } from "kafkajs";
      const kafka = new Kafka({ clientId: "kafka-broker-probe", brokers: [process.env.KAFKA_PROBE_BROKERS],
        logLevel: logLevel.NOTHING, connectionTimeout: 1000, requestTimeout: 3000, retry: { retries: 0 } });
      const admin = kafka.admin();
      try {
        await admin.connect();
        const c = await admin.describeCluster();
        process.exit(c.brokers.length > 0 && c.controller !== null ? 0 : 1);
      } catch { process.exit(1); }' >/dev/null 2>&1)
  else
    port_open "$KAFKA_PORT" && grep -q "Kafka Server started" "$LOG_FILE" 2>/dev/null
  fi
}

find_node_with_kafkajs() {
  SW_NODE=""
  if [ -f "$REPO_DIR/scripts/node24.sh" ]; then
    # shellcheck source=/dev/null
    . "$REPO_DIR/scripts/node24.sh" >&2 || true
  fi
  if command -v node >/dev/null && [ -d "$REPO_DIR/node_modules/kafkajs" ]; then
    SW_NODE="$(command -v node)"
  else
    say "Node.js or kafkajs (npm ci) missing: readiness is judged from the port and the broker log"
  fi
}

cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    say "already running (pid $pid, log $LOG_FILE)"
    echo "KAFKA_BROKERS=$BROKERS"
    return 0
  fi
  libs_ready || die "Kafka $KAFKA_VERSION is not in $KAFKA_LIBS: run scripts/kafka-broker.sh fetch first"
  need_java
  local p
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    if port_open "$p"; then
      die "port $HOST:$p is in use (a broker still running? scripts/kafka-broker.sh stop, or KAFKA_PORT=...)"
    fi
  done

  # A fresh cluster every start: tests never see topics or offsets of an earlier run. Only what this
  # script writes is removed, whatever KAFKA_RUN_DIR points at.
  rm -rf "$KAFKA_RUN_DIR/data"
  rm -f "$KAFKA_RUN_DIR/server.properties" "$KAFKA_RUN_DIR/log4j2.properties" "$PID_FILE" "$LOG_FILE" \
    "$KAFKA_RUN_DIR/format.log"
  mkdir -p "$KAFKA_RUN_DIR/data"
  write_config
  local started=$SECONDS cluster_id
  # A Kafka Uuid is 16 random bytes in URL-safe base64 without padding.
  cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
  say "formatting $KAFKA_RUN_DIR/data (cluster id $cluster_id)"
  java_cmd kafka.tools.StorageTool format --cluster-id="$cluster_id" -c "$KAFKA_RUN_DIR/server.properties"
  if ! "${JAVA_CMD[@]}" >"$KAFKA_RUN_DIR/format.log" 2>&1; then
    cat "$KAFKA_RUN_DIR/format.log" >&2
    die "kafka.tools.StorageTool format failed"
  fi

  say "starting Kafka $KAFKA_VERSION on $BROKERS (controller $HOST:$KAFKA_CONTROLLER_PORT), log $LOG_FILE"
  java_cmd kafka.Kafka "$KAFKA_RUN_DIR/server.properties"
  # setsid: the broker leaves this shell's session and process group, so it outlives this script
  # and a Ctrl-C in the terminal; exec makes the pid in the pid file the JVM's own.
  # shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" "${JAVA_CMD[@]}" </dev/null >"$LOG_FILE" 2>&1 &

  find_node_with_kafkajs
  local deadline=$((started + KAFKA_START_TIMEOUT))
  while :; do
    sleep 1
    if ! pid="$(running_pid)"; then
      # The pid file may not be written yet in the first instant; after that a missing JVM is fatal.
      if [ $((SECONDS - started)) -ge 3 ]; then
        fail_start "the broker exited during startup"
      fi
      continue
    fi
    if port_open "$KAFKA_PORT" && broker_answers; then
      break
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      fail_start "the broker did not answer on $BROKERS within ${KAFKA_START_TIMEOUT}s"
    fi
  done
  say "Kafka $KAFKA_VERSION answers on $BROKERS (pid $pid) after $((SECONDS - started))s"
  echo "KAFKA_BROKERS=$BROKERS"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    say "not running"
    return 0
  fi
  say "stopping the broker (pid $pid)"
  stop_pid "$pid"
  rm -f "$PID_FILE"
  say "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    say "running (pid $pid, Kafka $KAFKA_VERSION, log $LOG_FILE)"
    echo "KAFKA_BROKERS=$BROKERS"
    return 0
  fi
  say "not running"
  return 3
}

case "${1:-}" in
  fetch) cmd_fetch ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 fetch|start|stop|status" >&2
    exit 2
    ;;
esac
