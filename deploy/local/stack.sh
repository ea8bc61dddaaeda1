#!/usr/bin/env bash
# Local backing servers for the Agent Platform, run as plain processes (no Docker), default ports:
#   PostgreSQL 15 (pg_stat_statements preloaded)  127.0.0.1:55432
#   Redis 7                                       127.0.0.1:56379
#   Apache Kafka 3.9 (KRaft, single node)         127.0.0.1:59092 (broker), 127.0.0.1:59093 (controller)
#   FerretDB 1.24 (MongoDB wire, on Postgres)     127.0.0.1:57017
#   Prometheus 0.316 (scrapes 9470…9476 every 2 s) 127.0.0.1:59090
#   Jaeger v2 (in-memory traces)                   127.0.0.1:54318 (OTLP/HTTP), 127.0.0.1:56686 (UI + query API)
#
# Usage: deploy/local/stack.sh install|up|down|status|reset|versions|kafka-tool
#        deploy/local/stack.sh up|down prometheus|jaeger...   (only those two, alone)
#        deploy/local/stack.sh status <server>...              (only the named servers)
# Data, logs and pid files live in <repo>/.stack; downloads are cached in ~/.cache/agent-platform
# (Kafka jars, FerretDB binary) and ~/.m2 / Go's module cache. See deploy/local/README.md.
# The ports and the state directory can be overridden from the environment: STACK_PG_PORT,
# STACK_REDIS_PORT, STACK_KAFKA_PORT, STACK_KAFKA_CONTROLLER_PORT, STACK_FERRETDB_PORT,
# STACK_PROMETHEUS_PORT, STACK_JAEGER_OTLP_PORT, STACK_JAEGER_QUERY_PORT, STACK_JAEGER_QUERY_GRPC_PORT,
# STACK_DIR; the Prometheus and Jaeger binaries from PROMETHEUS_BIN / JAEGER_BIN (else deploy/tools).
#
# This file holds the settings, the commands and the dispatch; the work is done by lib/common.sh
# (logging, pids, ports, waits), lib/install.sh and one file per server (lib/postgres.sh,
# lib/redis.sh, lib/kafka.sh, lib/ferretdb.sh, lib/prometheus.sh, lib/jaeger.sh).
set -euo pipefail

# ----------------------------------------------------------------------------------------------
# settings
# ----------------------------------------------------------------------------------------------
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STACK_DIR="${STACK_DIR:-$REPO_ROOT/.stack}"
case "$STACK_DIR" in /*) ;; *) STACK_DIR="$PWD/$STACK_DIR" ;; esac # a relative STACK_DIR: from the cwd
LOG_DIR="$STACK_DIR/logs"
RUN_DIR="$STACK_DIR/run"

: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-platform}"

KAFKA_VERSION="3.9.1"
KAFKA_SCALA="2.13"
KAFKA_HOME="$CACHE_DIR/kafka-$KAFKA_VERSION"
KAFKA_LIBS="$KAFKA_HOME/libs"
KAFKA_POM="$SCRIPT_DIR/kafka/pom.xml"

FERRETDB_VERSION="v1.24.2"
FERRETDB_MODULE="github.com/FerretDB/FerretDB"
FERRETDB_BIN="$CACHE_DIR/bin/ferretdb"

# pinned in deploy/tools/install-{prometheus,jaeger}.sh (the binaries are cached in CACHE_DIR/go-bin)
PROMETHEUS_VERSION="v0.316.0"
JAEGER_VERSION="v1.76.0"

PG_PORT="${STACK_PG_PORT:-55432}"
REDIS_PORT="${STACK_REDIS_PORT:-56379}"
KAFKA_PORT="${STACK_KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${STACK_KAFKA_CONTROLLER_PORT:-59093}"
FERRETDB_PORT="${STACK_FERRETDB_PORT:-57017}"
PROMETHEUS_PORT="${STACK_PROMETHEUS_PORT:-59090}"
JAEGER_OTLP_PORT="${STACK_JAEGER_OTLP_PORT:-54318}"
JAEGER_QUERY_PORT="${STACK_JAEGER_QUERY_PORT:-56686}"
JAEGER_QUERY_GRPC_PORT="${STACK_JAEGER_QUERY_GRPC_PORT:-56685}" # the query API over gRPC (unused here)
HOST=127.0.0.1

PG_SUPERUSER=platform
PG_PASSWORD=platform
PG_DATABASES=(identity apikeys models workflows observability ferretdb platform_test)
PG_STAT_DATABASES=(observability platform_test)
PG_OS_USER_DEFAULT=platformdb # used only when the script runs as root

START_TIMEOUT="${STACK_START_TIMEOUT:-90}" # seconds per server

PG_DATA_LINK="$STACK_DIR/postgres"
PG_DATA="$PG_DATA_LINK" # the real directory; see pg_resolve_paths
REDIS_DATA="$STACK_DIR/redis"
KAFKA_DATA="$STACK_DIR/kafka"
FERRETDB_DATA="$STACK_DIR/ferretdb"

export DEBIAN_FRONTEND=noninteractive
umask 022 # the unprivileged postgres user must be able to traverse .stack

# shellcheck source=lib/common.sh
source "$SCRIPT_DIR/lib/common.sh"
# shellcheck source=lib/install.sh
source "$SCRIPT_DIR/lib/install.sh"
# shellcheck source=lib/postgres.sh
source "$SCRIPT_DIR/lib/postgres.sh"
# shellcheck source=lib/redis.sh
source "$SCRIPT_DIR/lib/redis.sh"
# shellcheck source=lib/kafka.sh
source "$SCRIPT_DIR/lib/kafka.sh"
# shellcheck source=lib/ferretdb.sh
source "$SCRIPT_DIR/lib/ferretdb.sh"
# shellcheck source=lib/prometheus.sh
source "$SCRIPT_DIR/lib/prometheus.sh"
# shellcheck source=lib/jaeger.sh
source "$SCRIPT_DIR/lib/jaeger.sh"

check_settings

# ----------------------------------------------------------------------------------------------
# commands
# ----------------------------------------------------------------------------------------------
SERVERS=(postgres redis kafka ferretdb prometheus jaeger)
# The two that start (and stop) alone: `stack.sh up prometheus jaeger`.
TELEMETRY_SERVERS=(prometheus jaeger)

server_port() {
  case "$1" in
    postgres) echo "$PG_PORT" ;;
    redis) echo "$REDIS_PORT" ;;
    kafka) echo "$KAFKA_PORT" ;;
    ferretdb) echo "$FERRETDB_PORT" ;;
    prometheus) echo "$PROMETHEUS_PORT" ;;
    jaeger) echo "$JAEGER_QUERY_PORT" ;;
  esac
}

server_running() {
  case "$1" in
    postgres) pg_running ;;
    redis) redis_running ;;
    kafka) kafka_running ;;
    ferretdb) ferretdb_running ;;
    prometheus) prometheus_running ;;
    jaeger) jaeger_running ;;
  esac
}

server_pid() {
  case "$1" in
    postgres) pg_pid ;;
    *) read_pid "$1" ;;
  esac
}

print_versions() {
  local pgv redisv ferretv kafkav
  pgv="$("$(pg_bin_dir)/postgres" --version)"
  redisv="$(redis-server --version | sed -E 's/.* v=([^ ]+).*/\1/')"
  local jars=("$KAFKA_LIBS"/kafka_"$KAFKA_SCALA"-*.jar)
  kafkav="$(basename "${jars[0]}" .jar)"
  kafkav="${kafkav#kafka_"$KAFKA_SCALA"-}"
  ferretv="$("$FERRETDB_BIN" --version | sed -n 's/^version: //p')"
  log "versions: $pgv | Redis $redisv | Apache Kafka $kafkav (Scala $KAFKA_SCALA, $("$(java_cmd)" -version 2>&1 | sed -n 1p)) | FerretDB $ferretv | Prometheus $PROMETHEUS_VERSION | Jaeger $JAEGER_VERSION"
}

cmd_up() {
  local t0
  t0="$(now)"
  cmd_install
  stack_lock
  pg_resolve_paths

  # drop pid files whose process is gone (killed, rebooted)
  local s
  for s in redis kafka ferretdb prometheus jaeger; do
    if [ -f "$(pidfile "$s")" ] && ! server_running "$s"; then
      warn "removing stale pid file $(pidfile "$s")"
      rm -f "$(pidfile "$s")"
    fi
  done

  local started_pg=0 started_redis=0 started_kafka=0 started_ferret=0
  # start the slow ones first and wait for all together
  if ! pg_running; then
    check_ports_free postgres "$PG_PORT"
    PG_STARTED_AT=$SECONDS
    pg_start
    started_pg=1
  fi
  if ! kafka_running; then
    check_ports_free kafka "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
    kafka_start
    started_kafka=1
  fi
  if ! redis_running; then
    check_ports_free redis "$REDIS_PORT"
    redis_start
    started_redis=1
  fi
  telemetry_start prometheus jaeger

  pg_wait
  if [ "$started_pg" -eq 1 ]; then log "postgres ready"; fi
  pg_provision
  ferretdb_prepare_backend

  if ! ferretdb_running; then
    check_ports_free ferretdb "$FERRETDB_PORT"
    ferretdb_start
    started_ferret=1
  fi

  redis_wait
  if [ "$started_redis" -eq 1 ]; then log "redis ready"; fi
  if [ "$started_kafka" -eq 1 ]; then
    kafka_wait
    log "kafka ready"
  else
    # running already, possibly still starting (an earlier 'up' that timed out, or a parallel one)
    kafka_wait_listening
  fi
  ferretdb_wait
  if [ "$started_ferret" -eq 1 ]; then log "ferretdb ready"; fi
  telemetry_wait prometheus jaeger

  print_versions
  cmd_status
  log "up: all servers ready in $(elapsed "$t0") (source deploy/local/env.sh for the connection settings)"
}

cmd_down() {
  stack_lock
  pg_resolve_paths
  jaeger_stop
  prometheus_stop
  ferretdb_stop
  kafka_stop
  redis_stop
  pg_stop
  log "down: all servers stopped (data kept in $STACK_DIR)"
}

# --- Prometheus and Jaeger, alone or as part of 'up' -------------------------------------------
STARTED_TELEMETRY=" "

telemetry_start() { # server...
  local s
  for s in "$@"; do
    if server_running "$s"; then continue; fi
    rm -f "$(pidfile "$s")"
    case "$s" in
      prometheus)
        check_ports_free prometheus "$PROMETHEUS_PORT"
        prometheus_start
        ;;
      jaeger)
        check_ports_free jaeger "$JAEGER_OTLP_PORT" "$JAEGER_QUERY_PORT" "$JAEGER_QUERY_GRPC_PORT"
        jaeger_start
        ;;
    esac
    STARTED_TELEMETRY+="$s "
  done
}

telemetry_wait() { # server...
  local s
  for s in "$@"; do
    "${s}_wait"
    if [[ "$STARTED_TELEMETRY" == *" $s "* ]]; then log "$s ready"; fi
  done
}

# `stack.sh up|down prometheus jaeger`: those servers only (the rest of the stack untouched);
# `stack.sh status <server>...`: the named servers (any of them) and whether they all run.
cmd_only() { # command server...
  local command="$1" s allowed
  shift
  allowed=("${TELEMETRY_SERVERS[@]}")
  [ "$command" != status ] || allowed=("${SERVERS[@]}")
  for s in "$@"; do
    [[ " ${allowed[*]} " == *" $s "* ]] ||
      die "'$s' cannot be handled alone by '$command'; only: ${allowed[*]} (or no name: the whole stack)"
  done
  case "$command" in
    up)
      stack_lock
      telemetry_start "$@"
      telemetry_wait "$@"
      cmd_status "$@"
      ;;
    down)
      stack_lock
      for s in "$@"; do "${s}_stop"; done
      ;;
    status) cmd_status "$@" ;;
  esac
}

# exit status: 0 when all (or all named) run, 1 otherwise (./platform uses it to tell whether the
# stack was up)
cmd_status() {
  local s pid port extra rc=0 servers=("$@")
  [ ${#servers[@]} -gt 0 ] || servers=("${SERVERS[@]}")
  for s in "${servers[@]}"; do
    port="$(server_port "$s")"
    extra=""
    [ "$s" = kafka ] && extra=" (controller $HOST:$KAFKA_CONTROLLER_PORT)"
    [ "$s" = prometheus ] && extra=" (UI and API: http://$HOST:$PROMETHEUS_PORT)"
    [ "$s" = jaeger ] && extra=" (UI and query API; OTLP/HTTP $HOST:$JAEGER_OTLP_PORT)"
    if server_running "$s"; then
      pid="$(server_pid "$s")"
      printf '%-10s running  pid %-7s %s:%s%s\n' "$s" "$pid" "$HOST" "$port" "$extra"
    else
      if port_listening "$port"; then
        extra="$extra — port held by another process"
      fi
      printf '%-10s stopped  pid %-7s %s:%s%s\n' "$s" "-" "$HOST" "$port" "$extra"
      rc=1
    fi
  done
  return "$rc"
}

cmd_reset() {
  cmd_down
  log "reset: deleting $STACK_DIR"
  exec 9>&-
  if [ -L "$PG_DATA_LINK" ]; then
    log "reset: deleting $PG_DATA"
    rm -rf "$PG_DATA"
  fi
  rm -rf "$STACK_DIR"
  case "$PG_SOCK_DIR" in /tmp/agent-platform-pg-*) rm -rf "$PG_SOCK_DIR" ;; esac
}

usage() {
  cat <<EOF
usage: $0 <command>
  install   install what is missing (Postgres, Redis via apt; Kafka jars via Maven; FerretDB via Go)
  up [prometheus|jaeger...]
            install, start every server that is not running, wait until all are ready
            (with names: only Prometheus and/or Jaeger)
  down [prometheus|jaeger...]
            stop all servers (data kept); with names: only those
  status [server...]
            one line per server
  reset     down, then delete $STACK_DIR
  versions  print the server versions
  kafka-tool <class> [args]
            run a Kafka command line tool with the cached jars, e.g.
            kafka-tool org.apache.kafka.tools.TopicCommand --bootstrap-server $HOST:$KAFKA_PORT --list
environment (defaults in brackets): STACK_DIR [$REPO_ROOT/.stack], STACK_PG_PORT [55432],
  STACK_REDIS_PORT [56379], STACK_KAFKA_PORT [59092], STACK_KAFKA_CONTROLLER_PORT [59093],
  STACK_FERRETDB_PORT [57017], STACK_PROMETHEUS_PORT [59090], STACK_JAEGER_OTLP_PORT [54318],
  STACK_JAEGER_QUERY_PORT [56686], STACK_JAEGER_QUERY_GRPC_PORT [56685], PROMETHEUS_BIN, JAEGER_BIN,
  STACK_REDIS_MAXMEMORY [1gb], STACK_START_TIMEOUT [90];
  see deploy/local/README.md
EOF
}

main() {
  case "${1:-}" in
    install) cmd_install ;;
    up | down | status)
      if [ $# -gt 1 ]; then
        cmd_only "$@"
      else
        "cmd_$1"
      fi
      ;;
    reset) cmd_reset ;;
    versions) print_versions ;;
    kafka-tool)
      shift
      [ $# -ge 1 ] || die "usage: $0 kafka-tool <main class> [args...]"
      kafka_installed || die "Kafka jars are not installed; run '$0 install'"
      [ -f "$KAFKA_DATA/tools-log4j.properties" ] || { mkdir -p "$KAFKA_DATA" && kafka_write_config; }
      kafka_java "$@"
      ;;
    -h | --help | help) usage ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
}

main "$@"
