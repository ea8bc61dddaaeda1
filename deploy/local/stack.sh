#!/usr/bin/env bash
# Local backing servers for the Agent Platform, run as plain processes (no Docker), default ports:
#   PostgreSQL 15 (pg_stat_statements preloaded)  127.0.0.1:55432
#   Redis 7                                       127.0.0.1:56379
#   Apache Kafka 3.9 (KRaft, single node)         127.0.0.1:59092 (broker), 127.0.0.1:59093 (controller)
#   FerretDB 1.24 (MongoDB wire, on Postgres)     127.0.0.1:57017
#
# Usage: deploy/local/stack.sh install|up|down|status|reset|versions|kafka-tool
# Data, logs and pid files live in <repo>/.stack; downloads are cached in ~/.cache/agent-platform
# (Kafka jars, FerretDB binary) and ~/.m2 / Go's module cache. See deploy/local/README.md.
# The ports and the state directory can be overridden from the environment: STACK_PG_PORT,
# STACK_REDIS_PORT, STACK_KAFKA_PORT, STACK_KAFKA_CONTROLLER_PORT, STACK_FERRETDB_PORT, STACK_DIR.
#
# This file holds the settings, the commands and the dispatch; the work is done by lib/common.sh
# (logging, pids, ports, waits), lib/install.sh and one file per server (lib/postgres.sh,
# lib/redis.sh, lib/kafka.sh, lib/ferretdb.sh).
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

PG_PORT="${STACK_PG_PORT:-55432}"
REDIS_PORT="${STACK_REDIS_PORT:-56379}"
KAFKA_PORT="${STACK_KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${STACK_KAFKA_CONTROLLER_PORT:-59093}"
FERRETDB_PORT="${STACK_FERRETDB_PORT:-57017}"
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

check_settings

# ----------------------------------------------------------------------------------------------
# commands
# ----------------------------------------------------------------------------------------------
SERVERS=(postgres redis kafka ferretdb)

server_port() {
  case "$1" in
    postgres) echo "$PG_PORT" ;;
    redis) echo "$REDIS_PORT" ;;
    kafka) echo "$KAFKA_PORT" ;;
    ferretdb) echo "$FERRETDB_PORT" ;;
  esac
}

server_running() {
  case "$1" in
    postgres) pg_running ;;
    redis) redis_running ;;
    kafka) kafka_running ;;
    ferretdb) ferretdb_running ;;
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
  log "versions: $pgv | Redis $redisv | Apache Kafka $kafkav (Scala $KAFKA_SCALA, $("$(java_cmd)" -version 2>&1 | sed -n 1p)) | FerretDB $ferretv"
}

cmd_up() {
  local t0
  t0="$(now)"
  cmd_install
  stack_lock
  pg_resolve_paths

  # drop pid files whose process is gone (killed, rebooted)
  local s
  for s in redis kafka ferretdb; do
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

  print_versions
  cmd_status
  log "up: all servers ready in $(elapsed "$t0") (source deploy/local/env.sh for the connection settings)"
}

cmd_down() {
  stack_lock
  pg_resolve_paths
  ferretdb_stop
  kafka_stop
  redis_stop
  pg_stop
  log "down: all servers stopped (data kept in $STACK_DIR)"
}

# exit status: 0 when all four run, 1 otherwise (./platform uses it to tell whether the stack was up)
cmd_status() {
  local s pid port extra rc=0
  for s in "${SERVERS[@]}"; do
    port="$(server_port "$s")"
    extra=""
    [ "$s" = kafka ] && extra=" (controller $HOST:$KAFKA_CONTROLLER_PORT)"
    if server_running "$s"; then
      pid="$(server_pid "$s")"
      printf '%-9s running  pid %-7s %s:%s%s\n' "$s" "$pid" "$HOST" "$port" "$extra"
    else
      if port_listening "$port"; then
        extra="$extra — port held by another process"
      fi
      printf '%-9s stopped  pid %-7s %s:%s%s\n' "$s" "-" "$HOST" "$port" "$extra"
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
  up        install, start every server that is not running, wait until all are ready
  down      stop all servers (data kept)
  status    one line per server
  reset     down, then delete $STACK_DIR
  versions  print the server versions
  kafka-tool <class> [args]
            run a Kafka command line tool with the cached jars, e.g.
            kafka-tool org.apache.kafka.tools.TopicCommand --bootstrap-server $HOST:$KAFKA_PORT --list
environment (defaults in brackets): STACK_DIR [$REPO_ROOT/.stack], STACK_PG_PORT [55432],
  STACK_REDIS_PORT [56379], STACK_KAFKA_PORT [59092], STACK_KAFKA_CONTROLLER_PORT [59093],
  STACK_FERRETDB_PORT [57017], STACK_REDIS_MAXMEMORY [1gb], STACK_START_TIMEOUT [90];
  see deploy/local/README.md
EOF
}

main() {
  case "${1:-}" in
    install) cmd_install ;;
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
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
