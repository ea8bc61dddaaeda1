# shellcheck shell=bash
# FerretDB (MongoDB wire protocol on the Postgres database 'ferretdb') for deploy/local/stack.sh
# (sourced by it): start, a wire-protocol ping as the readiness check, stop. Reads HOST, PG_*,
# FERRETDB_*, LOG_DIR and START_TIMEOUT from stack.sh.

# plan_cache_mode: FerretDB sends the field name as a query parameter; only a custom plan lets
# Postgres match it against the GIN twins' index expressions (ferretdb-gin-twins.sql).
ferretdb_pg_url() { printf 'postgres://%s:%s@%s:%s/ferretdb?plan_cache_mode=force_custom_plan' "$PG_SUPERUSER" "$PG_PASSWORD" "$HOST" "$PG_PORT"; }
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

# Installs the GIN twins of FerretDB's indexes in its backend database (why: ferretdb-gin-twins.sql).
# Idempotent; runs on every 'up', before FerretDB starts.
ferretdb_prepare_backend() {
  PGOPTIONS='-c client_min_messages=warning' psql_admin -d ferretdb \
    -f "$SCRIPT_DIR/ferretdb-gin-twins.sql" >/dev/null
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
