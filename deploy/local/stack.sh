#!/usr/bin/env bash
# Local backing servers for the Agent Platform, run as plain processes (no Docker):
#   PostgreSQL 15 (pg_stat_statements preloaded)  127.0.0.1:55432
#   Redis 7                                       127.0.0.1:56379
#   Apache Kafka 3.9 (KRaft, single node)         127.0.0.1:59092 (broker), 127.0.0.1:59093 (controller)
#   FerretDB 1.24 (MongoDB wire, on Postgres)     127.0.0.1:57017
#
# Usage: deploy/local/stack.sh install|up|down|status|reset|versions
# Data, logs and pid files live in <repo>/.stack; downloads are cached in ~/.cache/agent-platform
# (Kafka jars, FerretDB binary) and ~/.m2 / Go's module cache. See deploy/local/README.md.
set -euo pipefail

# ----------------------------------------------------------------------------------------------
# settings
# ----------------------------------------------------------------------------------------------
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STACK_DIR="${STACK_DIR:-$REPO_ROOT/.stack}"
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

PG_PORT=55432
REDIS_PORT=56379
KAFKA_PORT=59092
KAFKA_CONTROLLER_PORT=59093
FERRETDB_PORT=57017
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

# ----------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------
log() { printf '[stack] %s\n' "$*"; }
warn() { printf '[stack] WARNING: %s\n' "$*" >&2; }
die() {
  printf '[stack] ERROR: %s\n' "$*" >&2
  exit 1
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
have() { command -v "$1" >/dev/null 2>&1; }
is_root() { [ "$(id -u)" -eq 0 ]; }

# run a step and report how long it took
timed() {
  local label="$1"
  shift
  local t0
  t0="$(now)"
  "$@"
  log "$label done in $(elapsed "$t0")"
}

# Is anything listening on TCP $1 (any local address, IPv4 or IPv6)?
port_listening() {
  local hex
  hex="$(printf '%04X' "$1")"
  awk -v p=":$hex" 'FNR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# Human-readable description of whoever holds TCP port $1.
port_owner() {
  if have ss; then
    ss -Hltnp "sport = :$1" 2>/dev/null | awk 'NR <= 3 { $1 = $1; print }' || true
  fi
}

proc_cmdline() { tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null || true; }

# pid_alive PID PATTERN: the process exists and its command line contains PATTERN
pid_alive() {
  local pid="$1" pattern="$2"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ -d "/proc/$pid" ] || return 1
  local state
  state="$(awk '/^State:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)"
  [ "$state" != "Z" ] || return 1
  [[ "$(proc_cmdline "$pid")" == *"$pattern"* ]]
}

pidfile() { printf '%s/%s.pid' "$RUN_DIR" "$1"; }
read_pid() { [ -f "$(pidfile "$1")" ] && tr -dc '0-9' <"$(pidfile "$1")" || true; }

# wait_until TIMEOUT CHECK... : poll CHECK every 0.25s
wait_until() {
  local timeout="$1"
  shift
  local deadline=$((SECONDS + timeout))
  while ! "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.25
  done
}

log_tail() {
  local f="$1"
  if [ -f "$f" ]; then
    printf -- '----- last lines of %s -----\n' "$f" >&2
    tail -n 25 "$f" >&2 || true
    printf -- '-----\n' >&2
  fi
}

fail_start() { # name logfile message
  log_tail "$2"
  die "$1 did not come up: $3 (full log: $2)"
}

# Start a command detached (own session, no stdin) with output appended to a log; prints its pid.
spawn() {
  local logfile="$1"
  shift
  # 8/9 are our lock descriptors: a long-lived server must not inherit them
  setsid "$@" </dev/null >>"$logfile" 2>&1 8>&- 9>&- &
  printf '%s' "$!"
}

byte_size() { stat -c %s "$1" 2>/dev/null || echo 0; }

# ----------------------------------------------------------------------------------------------
# tool locations
# ----------------------------------------------------------------------------------------------
pg_bin_dir() {
  local d best="" want=""
  if [ -n "${PG_BIN:-}" ]; then
    printf '%s' "$PG_BIN"
    return
  fi
  # an existing cluster pins the major version it was created with
  [ -f "$PG_DATA/PG_VERSION" ] && want="$(cat "$PG_DATA/PG_VERSION")"
  if [ -n "$want" ] && [ -x "/usr/lib/postgresql/$want/bin/postgres" ]; then
    printf '%s' "/usr/lib/postgresql/$want/bin"
    return
  fi
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/postgres" ] && best="$d"
  done
  printf '%s' "$best"
}

go_cmd() {
  if have go; then
    command -v go
  elif [ -x /usr/local/go/bin/go ]; then
    printf '%s' /usr/local/go/bin/go
  fi
}

java_cmd() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    printf '%s' "$JAVA_HOME/bin/java"
  else
    command -v java || true
  fi
}

# ----------------------------------------------------------------------------------------------
# install
# ----------------------------------------------------------------------------------------------
APT_UPDATED=0
apt_install() {
  is_root || die "need root to apt-get install $* (or install it yourself and re-run)"
  if [ "$APT_UPDATED" -eq 0 ]; then
    log "apt-get update"
    apt-get update -qq
    APT_UPDATED=1
  fi
  log "apt-get install -y $*"
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

install_postgres() {
  if [ -n "$(pg_bin_dir)" ]; then
    return
  fi
  log "installing PostgreSQL 15 server + contrib (apt)"
  timed "postgres install" apt_install postgresql-15 postgresql-contrib-15
  [ -n "$(pg_bin_dir)" ] || die "PostgreSQL install did not provide /usr/lib/postgresql/*/bin/postgres"
}

install_redis() {
  if have redis-server && have redis-cli; then
    return
  fi
  log "installing redis-server (apt)"
  timed "redis install" apt_install redis-server redis-tools
}

install_java_tools() {
  if [ -z "$(java_cmd)" ]; then
    log "installing a Java 17 runtime (apt)"
    timed "java install" apt_install openjdk-17-jre-headless
  fi
  if ! have mvn; then
    log "installing Maven (apt)"
    timed "maven install" apt_install maven
  fi
}

kafka_libs_stamp() { sha256sum "$KAFKA_POM" | cut -c1-16; }

kafka_installed() {
  [ -f "$KAFKA_LIBS/.complete" ] &&
    [ "$(cat "$KAFKA_LIBS/.complete")" = "$(kafka_libs_stamp)" ] &&
    [ -f "$KAFKA_LIBS/kafka_${KAFKA_SCALA}-${KAFKA_VERSION}.jar" ]
}

fetch_kafka() {
  local tmp="$KAFKA_HOME/libs.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  # -B: batch mode (no colours, no stdin); the local repository (~/.m2) is the download cache
  if ! mvn -B -q -f "$KAFKA_POM" dependency:copy-dependencies \
    -DoutputDirectory="$tmp" -DincludeScope=runtime >"$KAFKA_HOME/mvn.log" 2>&1; then
    log_tail "$KAFKA_HOME/mvn.log"
    rm -rf "$tmp"
    die "fetching Kafka $KAFKA_VERSION jars from Maven Central failed (log: $KAFKA_HOME/mvn.log)"
  fi
  kafka_libs_stamp >"$tmp/.complete"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
}

install_kafka() {
  if kafka_installed; then
    return
  fi
  install_java_tools
  mkdir -p "$KAFKA_HOME"
  log "fetching Apache Kafka $KAFKA_VERSION (Scala $KAFKA_SCALA) jars from Maven Central into $KAFKA_LIBS"
  timed "kafka jars" fetch_kafka
  log "kafka: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars, $(du -sh "$KAFKA_LIBS" | cut -f1)"
}

ferretdb_installed() {
  local v
  [ -x "$FERRETDB_BIN" ] || return 1
  v="$("$FERRETDB_BIN" --version 2>/dev/null)" || return 1
  grep -qx "version: $FERRETDB_VERSION" <<<"$v"
}

# FerretDB is built from its Go module (fetched from the Go module proxy) rather than with
# `go install …@version`, for two reasons:
#  * `go install pkg@version` also asks the proxy for the module's version list (deprecation
#    check); that listing is not reachable from this network, so it fails;
#  * FerretDB embeds its version from build/version/version.txt, a file its release tooling
#    generates; a binary built without it panics at start ("Invalid build/version/version.txt").
# So: download the module, copy it to a writable build dir, write version.txt, `go build`.
build_ferretdb() {
  local go src dir
  go="$(go_cmd)"
  [ -n "$go" ] || die "Go is required to build FerretDB (expected 'go' on PATH or /usr/local/go/bin/go)"
  export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
  : >"$CACHE_DIR/ferretdb-build.log"
  dir="$("$go" mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" 2>>"$CACHE_DIR/ferretdb-build.log" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [ -n "$dir" ] && [ -f "$dir/go.mod" ] || die "go mod download $FERRETDB_MODULE@$FERRETDB_VERSION failed"
  src="$CACHE_DIR/build/ferretdb-$FERRETDB_VERSION"
  rm -rf "$src"
  mkdir -p "$(dirname "$src")" "$(dirname "$FERRETDB_BIN")"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
  printf '%s\n' "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  printf '%s\n' "agent-platform-local" >"$src/build/version/package.txt"
  if ! (cd "$src" && CGO_ENABLED=0 "$go" build -trimpath -o "$FERRETDB_BIN.tmp" ./cmd/ferretdb) \
    >>"$CACHE_DIR/ferretdb-build.log" 2>&1; then
    log_tail "$CACHE_DIR/ferretdb-build.log"
    die "building FerretDB $FERRETDB_VERSION failed (log: $CACHE_DIR/ferretdb-build.log)"
  fi
  mv "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
  rm -rf "$src"
}

install_ferretdb() {
  if ferretdb_installed; then
    return
  fi
  log "building FerretDB $FERRETDB_VERSION from the Go module proxy into $FERRETDB_BIN (takes a few minutes on 2 cores)"
  timed "ferretdb build" build_ferretdb
  ferretdb_installed || die "FerretDB build finished but $FERRETDB_BIN --version does not report $FERRETDB_VERSION"
}

cmd_install() {
  local t0
  t0="$(now)"
  mkdir -p "$CACHE_DIR"
  # one installer at a time per machine (several work trees share the cache)
  exec 8>"$CACHE_DIR/.install.lock"
  flock -w 1800 8 || die "timed out waiting for another install to finish ($CACHE_DIR/.install.lock)"
  install_postgres
  install_redis
  install_kafka
  install_ferretdb
  exec 8>&-
  log "install: everything present ($(elapsed "$t0"))"
}

# ----------------------------------------------------------------------------------------------
# PostgreSQL
# ----------------------------------------------------------------------------------------------
PG_OS_USER=""
pg_os_user() {
  if [ -n "$PG_OS_USER" ]; then
    return
  fi
  if ! is_root; then
    PG_OS_USER="$(id -un)"
    return
  fi
  # postgres refuses to run as root: use a dedicated unprivileged system user
  PG_OS_USER="${STACK_PG_OS_USER:-$PG_OS_USER_DEFAULT}"
  if ! getent passwd "$PG_OS_USER" >/dev/null; then
    log "creating system user $PG_OS_USER to run postgres"
    useradd --system --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin "$PG_OS_USER"
  fi
}

as_pg() {
  if is_root; then
    runuser -u "$PG_OS_USER" -- "$@"
  else
    "$@"
  fi
}

stack_hash() { printf '%s' "$STACK_DIR" | sha256sum | cut -c1-12; }

# Where the cluster and its unix socket live. Normally .stack/postgres and .stack/run/pg. Two
# fallbacks, decided once per work tree:
#  * running as root in a checkout the unprivileged postgres user cannot reach (e.g. under /root,
#    mode 700): the cluster goes to /var/lib/agent-platform/postgres-<hash> and .stack/postgres is
#    a symlink to it; the socket goes to /tmp/agent-platform-pg-<hash>;
#  * a socket path longer than sockaddr_un allows (deep checkout): the socket goes to /tmp.
PG_SOCK_DIR=""
pg_resolve_paths() {
  [ -z "$PG_SOCK_DIR" ] || return 0
  pg_os_user
  mkdir -p "$STACK_DIR" "$RUN_DIR" "$LOG_DIR"
  local reachable=1
  if is_root && ! as_pg test -x "$RUN_DIR"; then
    reachable=0
  fi
  if [ -L "$PG_DATA_LINK" ]; then
    PG_DATA="$(readlink -f "$PG_DATA_LINK")"
  elif [ ! -e "$PG_DATA_LINK" ] && [ "$reachable" -eq 0 ]; then
    PG_DATA="/var/lib/agent-platform/postgres-$(stack_hash)"
    mkdir -p "$PG_DATA"
    chmod 755 /var/lib/agent-platform
    ln -sfn "$PG_DATA" "$PG_DATA_LINK"
    log "postgres: $STACK_DIR is not reachable by user $PG_OS_USER; cluster in $PG_DATA (symlinked)"
  else
    PG_DATA="$PG_DATA_LINK"
  fi
  PG_SOCK_DIR="$RUN_DIR/pg"
  if [ "$reachable" -eq 0 ] || [ $((${#PG_SOCK_DIR} + 20)) -gt 100 ]; then
    PG_SOCK_DIR="/tmp/agent-platform-pg-$(stack_hash)"
  fi
}

pg_socket_dir() {
  pg_resolve_paths
  printf '%s' "$PG_SOCK_DIR"
}

pg_pid() {
  [ -f "$PG_DATA/postmaster.pid" ] && head -n1 "$PG_DATA/postmaster.pid" | tr -dc '0-9' || true
}

pg_running() {
  local pid
  pid="$(pg_pid)"
  [ -n "$pid" ] || return 1
  pid_alive "$pid" "postgres" || return 1
  # the postmaster runs with the data directory as its cwd
  [ "$(readlink -f "/proc/$pid/cwd" 2>/dev/null)" = "$(readlink -f "$PG_DATA")" ]
}

pg_ready() {
  "$(pg_bin_dir)/pg_isready" -q -h "$HOST" -p "$PG_PORT" -U "$PG_SUPERUSER" -d postgres -t 2
}

psql_admin() { # psql over the unix socket (trust) as the superuser
  "$(pg_bin_dir)/psql" -X -q -v ON_ERROR_STOP=1 -h "$(pg_socket_dir)" -p "$PG_PORT" -U "$PG_SUPERUSER" "$@"
}

pg_write_config() {
  cat >"$PG_DATA/platform.conf.tmp" <<EOF
# written by deploy/local/stack.sh on every 'up' (changes apply on the next restart)
listen_addresses = '$HOST'
port = $PG_PORT
unix_socket_directories = '$(pg_socket_dir)'
unix_socket_permissions = 0777
max_connections = 200
shared_buffers = 128MB
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
password_encryption = 'scram-sha-256'
# a disposable dev/test database: trade crash durability for speed (no corruption, may lose
# the last moments of commits on an OS crash)
synchronous_commit = off
log_line_prefix = '%m [%p] %q%u@%d '
log_timezone = 'UTC'
timezone = 'UTC'
EOF
  mv "$PG_DATA/platform.conf.tmp" "$PG_DATA/platform.conf"
  grep -q "^include_if_exists = 'platform.conf'" "$PG_DATA/postgresql.conf" ||
    printf "\ninclude_if_exists = 'platform.conf'\n" >>"$PG_DATA/postgresql.conf"
  chown "$PG_OS_USER:" "$PG_DATA/platform.conf" 2>/dev/null || true
}

pg_init() {
  local pwfile
  mkdir -p "$PG_DATA"
  chmod 700 "$PG_DATA"
  if is_root; then chown "$PG_OS_USER:" "$PG_DATA"; fi
  if ! as_pg test -w "$PG_DATA"; then
    die "user $PG_OS_USER cannot write $PG_DATA (is a parent directory not traversable by it?). \
Run 'stack.sh reset', or set STACK_DIR to a world-traversable place."
  fi
  log "initdb $PG_DATA (superuser $PG_SUPERUSER, scram-sha-256 on TCP, trust on the local socket)"
  pwfile="$(mktemp /tmp/agent-platform-pgpw.XXXXXX)" # somewhere the postgres user can read
  printf '%s\n' "$PG_PASSWORD" >"$pwfile"
  if is_root; then chown "$PG_OS_USER:" "$pwfile"; fi
  if ! as_pg "$(pg_bin_dir)/initdb" -D "$PG_DATA" -U "$PG_SUPERUSER" --pwfile="$pwfile" \
    --auth-host=scram-sha-256 --auth-local=trust --encoding=UTF8 --locale=C \
    >"$LOG_DIR/postgres-initdb.log" 2>&1; then
    rm -f "$pwfile"
    log_tail "$LOG_DIR/postgres-initdb.log"
    die "initdb failed (log: $LOG_DIR/postgres-initdb.log)"
  fi
  rm -f "$pwfile"
}

pg_start() {
  pg_resolve_paths
  local sock
  sock="$(pg_socket_dir)"
  mkdir -p "$sock"
  if is_root; then chown "$PG_OS_USER:" "$sock"; fi
  chmod 755 "$sock"
  if [ ! -f "$PG_DATA/PG_VERSION" ]; then
    # a half-finished initdb leaves a non-empty directory initdb refuses to reuse
    rm -rf "$PG_DATA"
    pg_init
  fi
  local bin ver
  bin="$(pg_bin_dir)"
  ver="$(cat "$PG_DATA/PG_VERSION")"
  [[ "$("$bin/postgres" --version)" == *" $ver."* ]] ||
    die "$PG_DATA was created by PostgreSQL $ver but $bin/postgres is $("$bin/postgres" --version); run 'stack.sh reset' or set PG_BIN"
  if is_root; then chown -R "$PG_OS_USER:" "$PG_DATA"; fi
  pg_write_config
  if [ -f "$PG_DATA/postmaster.pid" ]; then
    # not running (checked by the caller): a leftover from a killed server or a reboot
    warn "removing stale $PG_DATA/postmaster.pid (pid $(pg_pid) is not our postgres)"
    rm -f "$PG_DATA/postmaster.pid"
  fi
  rm -f "$sock/.s.PGSQL.$PG_PORT" "$sock/.s.PGSQL.$PG_PORT.lock"
  log "starting postgres on $HOST:$PG_PORT"
  # -W: do not wait here; we wait below together with the other servers. No -l: the server
  # inherits pg_ctl's stdout/stderr, i.e. the log file opened here (so the postgres user never
  # needs to reach .stack/logs itself).
  local -a cmd=("$bin/pg_ctl" -D "$PG_DATA" -W start)
  if is_root; then cmd=(runuser -u "$PG_OS_USER" -- "${cmd[@]}"); fi
  setsid "${cmd[@]}" </dev/null >>"$LOG_DIR/postgres.log" 2>&1 8>&- 9>&-
}

pg_wait() {
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! pg_ready; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      fail_start postgres "$LOG_DIR/postgres.log" "not accepting connections on $HOST:$PG_PORT after ${START_TIMEOUT}s"
    fi
    if [ "$SECONDS" -ge $((${PG_STARTED_AT:-0} + 5)) ] && ! pg_running; then
      # give pg_ctl a moment to write postmaster.pid before calling it dead
      fail_start postgres "$LOG_DIR/postgres.log" "the server process exited"
    fi
    sleep 0.25
  done
  pg_pid >"$(pidfile postgres)"
}

pg_provision() {
  local db existing
  existing="$(psql_admin -d postgres -At -c 'SELECT datname FROM pg_database')"
  for db in "${PG_DATABASES[@]}"; do
    if ! grep -qx "$db" <<<"$existing"; then
      log "postgres: CREATE DATABASE $db"
      psql_admin -d postgres -c "CREATE DATABASE \"$db\" OWNER \"$PG_SUPERUSER\""
    fi
  done
  for db in "${PG_STAT_DATABASES[@]}"; do
    PGOPTIONS='-c client_min_messages=warning' psql_admin -d "$db" -c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements'
  done
}

pg_stop() {
  pg_resolve_paths
  if pg_running; then
    log "stopping postgres (pg_ctl stop -m fast)"
    as_pg "$(pg_bin_dir)/pg_ctl" -D "$PG_DATA" -m fast -w -t 60 stop >/dev/null ||
      warn "pg_ctl stop failed; see $LOG_DIR/postgres.log"
  fi
  rm -f "$(pidfile postgres)"
}

# ----------------------------------------------------------------------------------------------
# Redis
# ----------------------------------------------------------------------------------------------
redis_running() { pid_alive "$(read_pid redis)" "redis-server" && [[ "$(proc_cmdline "$(read_pid redis)")" == *":$REDIS_PORT"* ]]; }
redis_ready() { [ "$(redis-cli -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }

redis_start() {
  mkdir -p "$REDIS_DATA"
  log "starting redis on $HOST:$REDIS_PORT"
  spawn "$LOG_DIR/redis.log" redis-server --bind "$HOST" --port "$REDIS_PORT" --dir "$REDIS_DATA" \
    --save "" --appendonly no --daemonize no --protected-mode yes --loglevel notice \
    --maxclients 2000 >"$(pidfile redis)"
}

redis_wait() {
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! redis_ready; do
    redis_running || fail_start redis "$LOG_DIR/redis.log" "the redis-server process exited"
    [ "$SECONDS" -lt "$deadline" ] || fail_start redis "$LOG_DIR/redis.log" "no PONG from $HOST:$REDIS_PORT after ${START_TIMEOUT}s"
    sleep 0.1
  done
}

redis_stop() {
  local pid
  pid="$(read_pid redis)"
  if redis_running; then
    log "stopping redis (SHUTDOWN NOSAVE)"
    redis-cli -h "$HOST" -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
    wait_until 20 bash -c "! [ -d /proc/$pid ]" || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$(pidfile redis)"
}

# ----------------------------------------------------------------------------------------------
# Kafka
# ----------------------------------------------------------------------------------------------
KAFKA_MAIN="kafka.Kafka"
kafka_running() { pid_alive "$(read_pid kafka)" "$KAFKA_MAIN $KAFKA_DATA/server.properties"; }

kafka_java() { # java for short-lived tools: small heap, quiet logging
  "$(java_cmd)" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$KAFKA_DATA/tools-log4j.properties" -cp "$KAFKA_LIBS/*" "$@"
}

kafka_write_config() {
  mkdir -p "$KAFKA_DATA/data"
  cat >"$KAFKA_DATA/server.properties" <<EOF
# written by deploy/local/stack.sh on every 'up' (single-node KRaft: broker + controller)
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KAFKA_DATA/data
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
auto.create.topics.enable=true
delete.topic.enable=true
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
log.retention.hours=24
log.segment.bytes=67108864
log.retention.check.interval.ms=300000
EOF
  cat >"$KAFKA_DATA/log4j.properties" <<'EOF'
# broker logging (log4j 1.x via reload4j): everything to stdout, which stack.sh sends to .stack/logs/kafka.log
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c{1})%n
# chatty at INFO: per-partition, per-segment and per-request lines
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.network.RequestChannel$=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log=WARN
log4j.logger.kafka.cluster=WARN
log4j.logger.kafka.server.ReplicaFetcherManager=WARN
log4j.logger.kafka.server.ReplicaAlterLogDirsManager=WARN
log4j.logger.org.apache.kafka.storage.internals.log=WARN
log4j.logger.org.apache.kafka.raft=WARN
log4j.logger.org.apache.kafka.image=WARN
log4j.logger.org.apache.kafka.metadata=WARN
log4j.logger.org.apache.kafka.controller=WARN
log4j.logger.org.apache.kafka.clients=WARN
log4j.logger.org.apache.kafka.common.utils.AppInfoParser=WARN
log4j.logger.org.apache.kafka.common.config.AbstractConfig=WARN
log4j.logger.kafka.coordinator=WARN
log4j.logger.org.apache.kafka.coordinator=WARN
# consumer-group joins/rebalances are worth seeing when debugging consumers
log4j.logger.kafka.coordinator.group=INFO
log4j.logger.org.apache.kafka.coordinator.group=INFO
log4j.logger.kafka.coordinator.group.GroupMetadataManager=WARN
log4j.logger.kafka.server.metadata=WARN
log4j.logger.kafka.server.KafkaConfig=WARN
log4j.logger.kafka.utils.Log4jControllerRegistration$=WARN
log4j.logger.kafka.authorizer.logger=WARN
log4j.logger.org.apache.kafka.server.util.FileLock=WARN
# thread start/stop chatter at startup and shutdown
log4j.logger.kafka.server.ClientQuotaManager$ThrottledChannelReaper=WARN
log4j.logger.kafka.server.DelayedOperationPurgatory$ExpiredOperationReaper=WARN
log4j.logger.kafka.server.NodeToControllerRequestThread=WARN
log4j.logger.kafka.raft.TimingWheelExpirationService$ExpiredOperationReaper=WARN
log4j.logger.org.apache.kafka.queue.KafkaEventQueue=WARN
log4j.logger.org.apache.kafka.server.util.timer=WARN
log4j.logger.org.apache.kafka.common.metrics=WARN
log4j.logger.org.apache.kafka.common.utils.LoggingSignalHandler=WARN
log4j.logger.org.apache.kafka.common.security=WARN
log4j.logger.kafka.network.ConnectionQuotas=WARN
log4j.logger.org.apache.kafka.server.network.EndpointReadyFutures=WARN
EOF
  cat >"$KAFKA_DATA/tools-log4j.properties" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

kafka_format() {
  if [ -f "$KAFKA_DATA/data/meta.properties" ]; then
    return
  fi
  local id
  if [ -s "$KAFKA_DATA/cluster.id" ]; then
    id="$(cat "$KAFKA_DATA/cluster.id")"
  else
    id="$(kafka_java kafka.tools.StorageTool random-uuid 2>>"$LOG_DIR/kafka.log" | tail -n1)"
    [ -n "$id" ] || fail_start kafka "$LOG_DIR/kafka.log" "kafka.tools.StorageTool random-uuid failed"
    printf '%s\n' "$id" >"$KAFKA_DATA/cluster.id"
  fi
  log "formatting kafka storage (cluster id $id)"
  kafka_java kafka.tools.StorageTool format -t "$id" -c "$KAFKA_DATA/server.properties" --ignore-formatted \
    >>"$LOG_DIR/kafka.log" 2>&1 ||
    fail_start kafka "$LOG_DIR/kafka.log" "kafka.tools.StorageTool format failed"
}

kafka_start() {
  kafka_write_config
  touch "$LOG_DIR/kafka.log"
  kafka_format
  KAFKA_LOG_OFFSET="$(byte_size "$LOG_DIR/kafka.log")"
  log "starting kafka $KAFKA_VERSION on $HOST:$KAFKA_PORT (controller $HOST:$KAFKA_CONTROLLER_PORT)"
  spawn "$LOG_DIR/kafka.log" "$(java_cmd)" -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError \
    -Djava.awt.headless=true -Dkafka.logs.dir="$LOG_DIR" \
    -Dlog4j.configuration="file:$KAFKA_DATA/log4j.properties" \
    -cp "$KAFKA_LIBS/*" "$KAFKA_MAIN" "$KAFKA_DATA/server.properties" >"$(pidfile kafka)"
}

kafka_started_logged() {
  # (process substitution, not a pipe: grep -q exiting early must not fail a pipefail pipeline)
  grep -q "Kafka Server started" < <(tail -c +"$((${KAFKA_LOG_OFFSET:-0} + 1))" "$LOG_DIR/kafka.log" 2>/dev/null)
}

kafka_wait() {
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! { kafka_started_logged && port_listening "$KAFKA_PORT"; }; do
    kafka_running || fail_start kafka "$LOG_DIR/kafka.log" "the kafka java process exited"
    [ "$SECONDS" -lt "$deadline" ] || fail_start kafka "$LOG_DIR/kafka.log" "no 'Kafka Server started' after ${START_TIMEOUT}s"
    sleep 0.25
  done
  # end to end: a real client lists topics through the broker listener
  if ! kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "$HOST:$KAFKA_PORT" --list \
    >/dev/null 2>"$RUN_DIR/kafka-check.err"; then
    cat "$RUN_DIR/kafka-check.err" >>"$LOG_DIR/kafka.log"
    fail_start kafka "$LOG_DIR/kafka.log" "TopicCommand --list against $HOST:$KAFKA_PORT failed"
  fi
}

kafka_wait_listening() {
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! port_listening "$KAFKA_PORT"; do
    kafka_running || fail_start kafka "$LOG_DIR/kafka.log" "the kafka java process exited"
    [ "$SECONDS" -lt "$deadline" ] || fail_start kafka "$LOG_DIR/kafka.log" "process is running but $HOST:$KAFKA_PORT is not listening after ${START_TIMEOUT}s"
    sleep 0.25
  done
}

stop_pid() { # name pid timeout
  local name="$1" pid="$2" timeout="$3"
  kill -TERM "$pid" 2>/dev/null || return 0
  if ! wait_until "$timeout" bash -c "! [ -d /proc/$pid ] || grep -q '^State:.*Z' /proc/$pid/status"; then
    warn "$name (pid $pid) did not stop within ${timeout}s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
    wait_until 10 bash -c "! [ -d /proc/$pid ]" || true
  fi
}

kafka_stop() {
  if kafka_running; then
    log "stopping kafka (SIGTERM, controlled shutdown)"
    stop_pid kafka "$(read_pid kafka)" 60
  fi
  rm -f "$(pidfile kafka)"
}

# ----------------------------------------------------------------------------------------------
# FerretDB
# ----------------------------------------------------------------------------------------------
ferretdb_pg_url() { printf 'postgres://%s:%s@%s:%s/ferretdb' "$PG_SUPERUSER" "$PG_PASSWORD" "$HOST" "$PG_PORT"; }
ferretdb_running() { pid_alive "$(read_pid ferretdb)" "--listen-addr=$HOST:$FERRETDB_PORT"; }

# MongoDB wire-protocol OP_MSG {ping: 1, $db: "admin"}, as bytes. FerretDB answers it only after
# asking its Postgres backend for its status, so {ok: 1.0} proves the whole path works.
# (`ferretdb ping` would be the obvious tool, but in 1.24 it requires --test-enable-new-auth.)
FERRETDB_PING_MSG='\x33\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\xdd\x07\x00\x00\x00\x00\x00\x00\x00\x1e\x00\x00\x00\x10\x70\x69\x6e\x67\x00\x01\x00\x00\x00\x02\x24\x64\x62\x00\x06\x00\x00\x00\x61\x64\x6d\x69\x6e\x00\x00'
FERRETDB_OK_HEX='016f6b00000000000000f03f' # BSON element "ok": double 1.0

ferretdb_ready() {
  local reply
  # shellcheck disable=SC2016 # the inner script gets its values as $0 $1 $2
  reply="$(timeout 5 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "$2" >&3
    len="$(head -c 4 <&3 | od -An -tu4 | tr -d " ")"
    [ -n "$len" ] && [ "$len" -gt 4 ] && [ "$len" -lt 1048576 ] || exit 1
    head -c "$((len - 4))" <&3 | od -An -tx1 | tr -d " \n"
  ' "$HOST" "$FERRETDB_PORT" "$FERRETDB_PING_MSG" 2>/dev/null)" || return 1
  [[ "$reply" == *"$FERRETDB_OK_HEX"* ]]
}

ferretdb_start() {
  mkdir -p "$FERRETDB_DATA"
  touch "$LOG_DIR/ferretdb.log"
  log "starting ferretdb on $HOST:$FERRETDB_PORT (backend: postgres database 'ferretdb')"
  spawn "$LOG_DIR/ferretdb.log" "$FERRETDB_BIN" --listen-addr="$HOST:$FERRETDB_PORT" \
    --handler=postgresql --postgresql-url="$(ferretdb_pg_url)" --state-dir="$FERRETDB_DATA" \
    --telemetry=disable --debug-addr=- --log-level=info --log-format=text >"$(pidfile ferretdb)"
}

ferretdb_wait() {
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! { port_listening "$FERRETDB_PORT" && ferretdb_ready; }; do
    ferretdb_running || fail_start ferretdb "$LOG_DIR/ferretdb.log" "the ferretdb process exited"
    [ "$SECONDS" -lt "$deadline" ] || fail_start ferretdb "$LOG_DIR/ferretdb.log" "ping to $HOST:$FERRETDB_PORT failed for ${START_TIMEOUT}s"
    sleep 0.25
  done
}

ferretdb_stop() {
  if ferretdb_running; then
    log "stopping ferretdb"
    stop_pid ferretdb "$(read_pid ferretdb)" 20
  fi
  rm -f "$(pidfile ferretdb)"
}

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

stack_lock() {
  mkdir -p "$STACK_DIR" "$LOG_DIR" "$RUN_DIR"
  exec 9>"$RUN_DIR/.lock"
  flock -w 300 9 || die "another stack.sh is running against $STACK_DIR (lock $RUN_DIR/.lock)"
}

# Refuse to start a server whose port(s) someone else holds.
check_ports_free() {
  local name="$1" port
  shift
  for port in "$@"; do
    if port_listening "$port"; then
      die "port $port (wanted by $name) is already in use by another process: \
$(port_owner "$port" | tr '\n' ' ')— stop it or free the port, then re-run"
    fi
  done
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
