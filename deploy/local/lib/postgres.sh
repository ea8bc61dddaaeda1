# shellcheck shell=bash
# PostgreSQL for deploy/local/stack.sh (sourced by it): where the binaries, the cluster and its
# socket are, initdb, start/wait/stop, and the databases every 'up' creates. As root, postgres runs
# as an unprivileged system user (PG_OS_USER_DEFAULT / STACK_PG_OS_USER).
# Reads PG_*, HOST, STACK_DIR, LOG_DIR, RUN_DIR and START_TIMEOUT from stack.sh.

# --- binaries, OS user and paths --------------------------------------------------------------
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

# --- state ------------------------------------------------------------------------------------
pg_pid() {
  if [ -f "$PG_DATA/postmaster.pid" ]; then head -n1 "$PG_DATA/postmaster.pid" | tr -dc '0-9' || true; fi
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

# --- config, initdb, start, wait, provision, stop ---------------------------------------------
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
