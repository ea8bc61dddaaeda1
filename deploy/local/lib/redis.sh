# shellcheck shell=bash
# Redis for deploy/local/stack.sh (sourced by it): no persistence (--save "", no AOF), bound to
# HOST:REDIS_PORT, pid in RUN_DIR/redis.pid. Memory bounded (STACK_REDIS_MAXMEMORY, default 1gb:
# room for the inbox benchmark's read model) and never evicting: sessions and revocations live here
# (deploy/README.md "Redis sizing"). Reads HOST, REDIS_*, LOG_DIR and START_TIMEOUT from
# stack.sh.

redis_running() { pid_alive "$(read_pid redis)" "redis-server" && [[ "$(proc_cmdline "$(read_pid redis)")" == *":$REDIS_PORT"* ]]; }
redis_ready() { [ "$(redis-cli -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }

redis_start() {
  mkdir -p "$REDIS_DATA"
  log "starting redis on $HOST:$REDIS_PORT"
  spawn "$LOG_DIR/redis.log" redis-server --bind "$HOST" --port "$REDIS_PORT" --dir "$REDIS_DATA" \
    --save "" --appendonly no --daemonize no --protected-mode yes --loglevel notice \
    --maxclients 2000 --maxmemory "${STACK_REDIS_MAXMEMORY:-1gb}" --maxmemory-policy noeviction \
    >"$(pidfile redis)"
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
