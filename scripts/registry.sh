#!/usr/bin/env bash
# A real schema registry with the Confluent REST API (Apicurio Registry, in-memory storage, no Docker)
# for the integration tests.
#
#   scripts/registry.sh fetch    Maven fetches Apicurio Registry's distribution into the cache (once)
#   scripts/registry.sh start    starts the registry on 127.0.0.1, waits until its Confluent API
#                                answers, prints SCHEMA_REGISTRY_URL=http://127.0.0.1:PORT/apis/ccompat/v7
#   scripts/registry.sh stop     stops the registry started by `start` (idempotent)
#   scripts/registry.sh status   exit 0 and SCHEMA_REGISTRY_URL=... when it runs, exit 3 when not
#
# Typical use:   scripts/registry.sh fetch && export "$(scripts/registry.sh start)"
#
# Environment (all optional):
#   APICURIO_VERSION            Apicurio Registry release from Maven Central (default 3.3.3, which
#                               needs Java 21+; 2.6.13.Final runs on Java 17 and is the fallback)
#   REGISTRY_PORT               HTTP port (default 18081)
#   REGISTRY_MANAGEMENT_PORT    Quarkus management port, 3.x only (default REGISTRY_PORT + 1)
#   REGISTRY_START_TIMEOUT      seconds `start` waits for the API to answer (default 120)
#   REGISTRY_HEAP_OPTS          JVM heap options (default -Xms128m -Xmx512m)
#   JAVA_HOME                   used when its java is new enough; else the newest fitting JDK in
#                               /usr/lib/jvm (or the java on PATH) is picked
#   SW_CACHE                    cache root outside the repository (default ~/.cache/schemawatch)
#   REGISTRY_RUN_DIR            where the pid file and log go
#                               (default $SW_CACHE/registry-run-$REGISTRY_PORT)
# Everything but the SCHEMA_REGISTRY_URL line goes to stderr.
set -euo pipefail

APICURIO_VERSION="${APICURIO_VERSION:-3.3.3}"
REGISTRY_PORT="${REGISTRY_PORT:-18081}"
REGISTRY_MANAGEMENT_PORT="${REGISTRY_MANAGEMENT_PORT:-$((REGISTRY_PORT + 1))}"
REGISTRY_START_TIMEOUT="${REGISTRY_START_TIMEOUT:-120}"
REGISTRY_HEAP_OPTS="${REGISTRY_HEAP_OPTS:--Xms128m -Xmx512m}"
SW_CACHE="${SW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/schemawatch}"
APICURIO_HOME="$SW_CACHE/apicurio-registry-$APICURIO_VERSION"
REGISTRY_RUN_DIR="${REGISTRY_RUN_DIR:-$SW_CACHE/registry-run-$REGISTRY_PORT}"
PID_FILE="$REGISTRY_RUN_DIR/registry.pid"
LOG_FILE="$REGISTRY_RUN_DIR/registry.log"
HOST="127.0.0.1"
API_PATH="/apis/ccompat/v7"
URL="http://$HOST:$REGISTRY_PORT$API_PATH"
ARTIFACT="io.apicurio:apicurio-registry-app:$APICURIO_VERSION:tar.gz:all"
# An explicit plugin version: Maven 3.8's default maven-dependency-plugin cannot copy without a pom.
DEPENDENCY_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"

say() { echo "registry: $*" >&2; }
die() {
  say "$*"
  exit 1
}

# 3.x is a Quarkus fast-jar (quarkus-run.jar, Java 21+); 2.x ships one -runner.jar (Java 17+).
case "$APICURIO_VERSION" in
  2.*)
    JAVA_MIN=17
    APP_JAR="$APICURIO_HOME/apicurio-registry-app-$APICURIO_VERSION-runner.jar"
    ;;
  *)
    JAVA_MIN=21
    APP_JAR="$APICURIO_HOME/quarkus-run.jar"
    ;;
esac

# The major Java version of the java binary $1 (java.specification.version), or nothing.
java_major() {
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -nE 's/^ *java\.specification\.version = (1\.)?([0-9]+).*/\2/p' | head -n 1
}

# Sets JAVA to a java binary of version JAVA_MIN or newer: JAVA_HOME's when it is new enough, else
# the newest of /usr/lib/jvm/*/bin/java and the java on PATH. Never a hard-coded JDK path: machines
# differ in which JDKs they have and where.
find_java() {
  JAVA=""
  local major
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    major="$(java_major "$JAVA_HOME/bin/java")"
    if [ -n "$major" ] && [ "$major" -ge "$JAVA_MIN" ]; then
      JAVA="$JAVA_HOME/bin/java"
      return 0
    fi
    say "JAVA_HOME=$JAVA_HOME is Java ${major:-?}; Apicurio Registry $APICURIO_VERSION needs $JAVA_MIN+: looking further"
  fi
  local candidate real best="" best_major=0 seen=" " found=""
  for candidate in /usr/lib/jvm/*/bin/java "$(command -v java 2>/dev/null || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] || continue
    real="$(readlink -f "$candidate")"
    case "$seen" in *" $real "*) continue ;; esac
    seen="$seen$real "
    major="$(java_major "$real")"
    [ -n "$major" ] || continue
    found="$found $major"
    if [ "$major" -ge "$JAVA_MIN" ] && [ "$major" -gt "$best_major" ]; then
      best="$real"
      best_major="$major"
    fi
  done
  if [ -z "$best" ]; then
    die "no Java $JAVA_MIN or newer found (JAVA_HOME, /usr/lib/jvm/*/bin/java, PATH; found:${found:- none}). Apicurio Registry $APICURIO_VERSION needs Java $JAVA_MIN+: install one, set JAVA_HOME, or use APICURIO_VERSION=2.6.13.Final, which runs on Java 17"
  fi
  JAVA="$best"
}

dist_ready() { [ -f "$APICURIO_HOME/.complete" ] && [ -f "$APP_JAR" ]; }

cmd_fetch() {
  if dist_ready; then
    say "Apicurio Registry $APICURIO_VERSION already in $APICURIO_HOME"
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found on PATH: Maven is needed to fetch $ARTIFACT"
  command -v tar >/dev/null || die "tar not found on PATH: it is needed to unpack $ARTIFACT"
  say "fetching $ARTIFACT with Maven into $APICURIO_HOME"
  mkdir -p "$SW_CACHE"
  local tmp rc
  tmp="$(mktemp -d "$SW_CACHE/.apicurio-fetch.XXXXXX")"
  # -q keeps Maven's progress quiet; its errors still reach stderr (without the colour codes that
  # Maven 3.8 prints even in quiet batch mode), and a failure stops the script.
  set +e
  mvn -q -B "$DEPENDENCY_PLUGIN:copy" -Dartifact="$ARTIFACT" -DoutputDirectory="$tmp/download" 2>&1 |
    sed -E 's/\x1b\[[0-9;]*m//g; /^[[:space:]]*$/d' >&2
  rc="${PIPESTATUS[0]}"
  set -e
  local archive="$tmp/download/apicurio-registry-app-$APICURIO_VERSION-all.tar.gz"
  if [ "$rc" -ne 0 ] || [ ! -f "$archive" ]; then
    rm -rf "$tmp"
    die "Maven could not fetch $ARTIFACT (see the errors above)"
  fi
  mkdir -p "$tmp/home"
  if ! tar -xzf "$archive" -C "$tmp/home"; then
    rm -rf "$tmp"
    die "cannot unpack $archive"
  fi
  rm -rf "$tmp/download"
  local jar="${APP_JAR#"$APICURIO_HOME"/}"
  [ -f "$tmp/home/$jar" ] || {
    rm -rf "$tmp"
    die "the archive of $ARTIFACT unpacked, but $jar is not in it"
  }
  rm -rf "$APICURIO_HOME"
  touch "$tmp/home/.complete"
  mv "$tmp/home" "$APICURIO_HOME"
  rmdir "$tmp"
  say "Apicurio Registry $APICURIO_VERSION ready in $APICURIO_HOME ($(du -sm "$APICURIO_HOME" | cut -f1) MB)"
}

# The pid in the pid file when that process is still our registry; nothing otherwise.
running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # Guard against a recycled pid: the process must be the registry of this run dir.
  { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null |
    grep -qF -- "-Dschemawatch.registry.run-dir=$REGISTRY_RUN_DIR " || return 1
  echo "$pid"
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

# 0 when GET $API_PATH/subjects answers 200. Plain bash (/dev/tcp), so no curl is needed.
api_answers() {
  timeout 5 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "GET %s/subjects HTTP/1.0\r\nHost: %s:%s\r\nAccept: application/json\r\n\r\n" "$2" "$0" "$1" >&3
    IFS= read -r status <&3 || exit 1
    case "$status" in "HTTP/1."?" 200"*) exit 0 ;; *) exit 1 ;; esac
  ' "$HOST" "$REGISTRY_PORT" "$API_PATH" 2>/dev/null
}

# The java command line (in the array JAVA_CMD) that runs the registry.
java_cmd() {
  local heap
  read -r -a heap <<<"$REGISTRY_HEAP_OPTS"
  # quarkus.management.host: 3.x serves health and metrics on a second port that listens on every
  # address unless told otherwise. The run-dir property marks the process as ours (see running_pid).
  JAVA_CMD=("$JAVA" "${heap[@]}" -XX:+UseSerialGC -Djava.awt.headless=true
    "-Dschemawatch.registry.run-dir=$REGISTRY_RUN_DIR"
    "-Dquarkus.http.host=$HOST" "-Dquarkus.http.port=$REGISTRY_PORT"
    "-Dquarkus.management.host=$HOST" "-Dquarkus.management.port=$REGISTRY_MANAGEMENT_PORT"
    -Dquarkus.log.console.color=false
    -jar "$APP_JAR")
}

# SIGTERM (Quarkus shuts down cleanly), then waits for the process to be gone; SIGKILL after 30s.
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

cmd_start() {
  local pid
  if pid="$(running_pid)"; then
    say "already running (pid $pid, log $LOG_FILE)"
    echo "SCHEMA_REGISTRY_URL=$URL"
    return 0
  fi
  dist_ready || die "Apicurio Registry $APICURIO_VERSION is not in $APICURIO_HOME: run scripts/registry.sh fetch first"
  find_java
  local p
  for p in "$REGISTRY_PORT" "$REGISTRY_MANAGEMENT_PORT"; do
    if port_open "$p"; then
      die "port $HOST:$p is in use (a registry still running? scripts/registry.sh stop, or REGISTRY_PORT=...)"
    fi
  done

  # Storage is in memory: every start begins with an empty registry. Only what this script writes
  # is removed, whatever REGISTRY_RUN_DIR points at.
  mkdir -p "$REGISTRY_RUN_DIR"
  rm -f "$PID_FILE" "$LOG_FILE"
  java_cmd
  local started=$SECONDS
  say "starting Apicurio Registry $APICURIO_VERSION ($JAVA, Java $(java_major "$JAVA")) on $HOST:$REGISTRY_PORT, log $LOG_FILE"
  # setsid: the registry leaves this shell's session and process group, so it outlives this script
  # and a Ctrl-C in the terminal; exec makes the pid in the pid file the JVM's own. The inner shell
  # changes into the run dir itself: a `cd && setsid … &` list would fork a shell that waits for the
  # JVM while holding this script's stdout, and `$(scripts/registry.sh start)` would never return.
  # shellcheck disable=SC2016 # $0, $1 and $@ belong to the inner shell
  setsid bash -c 'echo $$ >"$0"; cd "$1" || exit 1; shift; exec "$@"' "$PID_FILE" "$REGISTRY_RUN_DIR" \
    "${JAVA_CMD[@]}" </dev/null >"$LOG_FILE" 2>&1 &

  local deadline=$((started + REGISTRY_START_TIMEOUT))
  while :; do
    sleep 1
    if ! pid="$(running_pid)"; then
      # The pid file may not be written yet in the first instant; after that a missing JVM is fatal.
      if [ $((SECONDS - started)) -ge 3 ]; then
        fail_start "the registry exited during startup"
      fi
      continue
    fi
    if port_open "$REGISTRY_PORT" && api_answers; then
      break
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      fail_start "the registry did not answer on $URL/subjects within ${REGISTRY_START_TIMEOUT}s"
    fi
  done
  local rss
  rss="$(ps -o rss= -p "$pid" 2>/dev/null | tr -d ' ' || true)"
  say "Apicurio Registry $APICURIO_VERSION answers on $URL (pid $pid) after $((SECONDS - started))s, RSS $((${rss:-0} / 1024)) MB"
  echo "SCHEMA_REGISTRY_URL=$URL"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    say "not running"
    return 0
  fi
  say "stopping the registry (pid $pid)"
  stop_pid "$pid"
  rm -f "$PID_FILE"
  say "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    say "running (pid $pid, Apicurio Registry $APICURIO_VERSION, log $LOG_FILE)"
    echo "SCHEMA_REGISTRY_URL=$URL"
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
