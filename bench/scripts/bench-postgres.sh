#!/usr/bin/env bash
# A Postgres of the benchmarks' own (never the shared stack's on 55432): benchmarks that restart
# Postgres or fill it with millions of rows use it, so running them never disturbs the stack.
#
#   bash bench/scripts/bench-postgres.sh start|restart|stop|url
#
# Port BENCH_PG_PORT (default 55532), data in BENCH_PG_DATA (default /var/tmp/…), the same
# server binaries and settings as deploy/local (pg_stat_statements preloaded, 128 MB shared
# buffers) except durability: synchronous_commit stays on, as in production. `restart` also drops
# the OS page cache when allowed (root), so the next reads come from disk: a truly cold server.
set -euo pipefail

PORT="${BENCH_PG_PORT:-55532}"
# Outside $HOME: as root the server runs as the `postgres` user, who cannot enter /root.
DATA="${BENCH_PG_DATA:-/var/tmp/agent-platform-bench-postgres}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -x "$BIN/postgres" ] || { echo "no PostgreSQL server binaries under /usr/lib/postgresql (run ./platform up once)" >&2; exit 1; }
OS_USER="$(id -un)"
if [ "$(id -u)" = 0 ]; then OS_USER=postgres; fi
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u "$OS_USER" -- "$@"; else "$@"; fi; }

init() {
  [ -f "$DATA/PG_VERSION" ] && return
  mkdir -p "$DATA"
  chown "$OS_USER:" "$DATA" 2>/dev/null || true
  chmod 700 "$DATA"
  local pw
  pw="$(mktemp)"
  echo platform >"$pw"
  chmod 644 "$pw"
  as_pg "$BIN/initdb" -D "$DATA" -U platform --pwfile="$pw" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  cat >>"$DATA/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '/tmp'
max_connections = 100
shared_buffers = 128MB
shared_preload_libraries = 'pg_stat_statements'
timezone = 'UTC'
CONF
}

start() {
  init
  as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 status >/dev/null 2>&1 && return
  as_pg "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 start >/dev/null
}

case "${1:-}" in
  start) start ;;
  restart)
    as_pg "$BIN/pg_ctl" -D "$DATA" -w -t 60 -m fast stop >/dev/null 2>&1 || true
    sync
    if [ -w /proc/sys/vm/drop_caches ]; then echo 3 >/proc/sys/vm/drop_caches; fi
    start
    ;;
  stop) as_pg "$BIN/pg_ctl" -D "$DATA" -w -t 60 -m fast stop >/dev/null 2>&1 || true ;;
  url) echo "postgres://platform:platform@127.0.0.1:$PORT/postgres" ;;
  *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
